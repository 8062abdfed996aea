import type { Test } from 'supertest';
import { useShared } from './lifecycle';
import type { TestApp } from './test-app';
import type { TestTenant } from './test-tenant';

export const SCIM_TOKEN = 'scim-directory-app-token-0001';
export const READ_TOKEN = 'scim-reader-app-token-000001';
export const ACCESS_TOKEN = 'scim-ada-access-token-000001';
export const SCIM_HOST = 'scim.test';
export const SCIM_JSON = 'application/scim+json; charset=utf-8';

/** A tenant with ada (and her access token), a provisioning app and a reading app. */
export const SCIM_TENANT = {
  tenant: { id: 'scim', name: 'SCIM' },
  identities: [
    { identityId: 'ada', displayName: 'Ada', userName: 'ada.lovelace' },
  ],
  tokens: [
    {
      token: SCIM_TOKEN,
      type: 'app',
      appId: 'directory',
      scopes: ['scim:provision'],
    },
    {
      token: READ_TOKEN,
      type: 'app',
      appId: 'reader',
      scopes: ['identities:read', 'identities:delete'],
    },
    { token: ACCESS_TOKEN, type: 'access', identityId: 'ada' },
  ],
};

export interface ScimClient {
  tenant: TestTenant;
  /** The base path, `/{tenant}/scim/v2`. */
  base: string;
  /** A request below the base with the tenant's copy of `token` ('' for none). */
  send(
    method: 'get' | 'post' | 'put' | 'patch' | 'delete',
    path: string,
    token?: string,
  ): Test;
  /** A request with a SCIM JSON body, as the provisioning app. */
  write(method: 'post' | 'put' | 'patch', path: string, body: object): Test;
}

/** A copy of SCIM_TENANT of its own and requests to its SCIM base. */
export async function scimClient(
  t: TestApp,
  file: object = SCIM_TENANT,
): Promise<ScimClient> {
  const tenant = await t.newTenant(file);
  const base = `/${tenant.id}/scim/v2`;
  const send: ScimClient['send'] = (method, path, token = SCIM_TOKEN) => {
    // A fixed Host, so that the locations the service writes are known.
    const req = t
      .http()
      [method](base + path)
      .set('Host', SCIM_HOST);
    return token
      ? req.set('Authorization', `Bearer ${tenant.token(token)}`)
      : req;
  };
  return {
    tenant,
    base,
    send,
    write: (method, path, body) =>
      send(method, path)
        .set('Content-Type', 'application/scim+json')
        .send(JSON.stringify(body)),
  };
}

/**
 * A SCIM client of the tests of a describe block, on a copy of `file` made
 * before them (before each of them with `each`).
 */
export function useScimClient(
  t: TestApp,
  file: object = SCIM_TENANT,
  { each = false } = {},
): ScimClient {
  return useShared('the SCIM client', () => scimClient(t, file), undefined, {
    each,
  });
}
