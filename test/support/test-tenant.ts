import type { Server } from 'node:http';
import { TenantsService } from '../../src/tenants/tenants.service';
import { Caller, caller } from './caller';

/** A tenant a test imported for itself, under an id no other test uses. */
export interface TestTenant {
  id: string;
  /** The root of its identity API, `/<id>/api/identity/v1`. */
  api: string;
  /** This tenant's copy of a token of the file; any other token unchanged. */
  token(secret: string): string;
  /** Requests with this tenant's copy of `token`, paths below `api`. */
  as(token: string): Caller;
}

let copies = 0;

/**
 * Imports `file` as a new tenant: its id and its token secrets get a suffix
 * of their own (secrets are unique across tenants), everything else is as
 * the file says. Tests that change data take a copy each and share the app.
 */
export async function importCopy(
  server: Server,
  tenants: TenantsService,
  file: Record<string, any>,
  /** Told the copy's id before it is imported (to list it for private networks). */
  beforeImport: (tenantId: string) => void = () => {},
): Promise<TestTenant> {
  const suffix = `-${++copies}`;
  const copy = structuredClone(file);
  copy.tenant.id += suffix;
  beforeImport(copy.tenant.id);
  const secrets = new Map<string, string>();
  for (const token of copy.tokens ?? []) {
    secrets.set(token.token, token.token + suffix);
    token.token += suffix;
  }
  await tenants.importTenant(copy);
  const api = `/${copy.tenant.id}/api/identity/v1`;
  const token = (secret: string) => secrets.get(secret) ?? secret;
  return {
    id: copy.tenant.id,
    api,
    token,
    as: (secret) => caller(server, token(secret), api),
  };
}

export interface TestIdentity {
  id: string;
  /** An access token of the identity. */
  token: string;
  tenant: TestTenant;
}

/**
 * A tenant of its own holding one identity (`someone` unless the fields
 * name it) and an access token for it: for tests that need an identity, not
 * the example.
 */
export async function importIdentity(
  server: Server,
  tenants: TenantsService,
  identity: { identityId?: string; [field: string]: unknown } = {},
): Promise<TestIdentity> {
  const id = identity.identityId ?? 'someone';
  const secret = `${id}-access-token-000001`;
  const tenant = await importCopy(server, tenants, {
    tenant: { id: 'identity', name: 'One identity' },
    identities: [{ ...identity, identityId: id }],
    tokens: [{ token: secret, type: 'access', identityId: id }],
  });
  return { id, token: tenant.token(secret), tenant };
}
