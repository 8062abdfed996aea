import { useScimClient, ScimClient } from './scim-tenant';
import { TestApp, useTestApp } from './test-app';

// What the tests of SCIM Users (test/scim-users-*.e2e-spec.ts) share.

export const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const EXT = 'urn:ietf:params:scim:schemas:extension:identity:2.0:User';
export const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

export const byText = (x: string, y: string) => x.localeCompare(y);

/** A User as a directory sends it, with a value of every kind SCIM maps. */
export const GRACE = {
  schemas: [USER],
  userName: 'Grace@Example.org',
  externalId: 'ext-grace',
  name: { givenName: 'Grace', familyName: 'Hopper' },
  displayName: 'Grace Hopper',
  emails: [
    { value: 'grace@example.org', type: 'work', primary: true },
    { value: 'amazing@example.net', type: 'home' },
  ],
  phoneNumbers: [
    { value: '+1 555 0100', type: 'mobile' },
    { value: '+1 555 0199', type: 'work' },
  ],
  photos: [
    { value: 'https://pictures.example/grace/l.jpg', type: 'photo' },
    { value: 'https://pictures.example/grace/s.jpg', type: 'thumbnail' },
  ],
  locale: 'en-US',
  active: true,
};

/** A SCIM error body. */
export const error = (
  status: number,
  scimType: string | undefined,
  detail: any,
) => ({
  schemas: [ERROR],
  status: String(status),
  ...(scimType && { scimType }),
  detail,
});

export interface ScimUsers {
  t: TestApp;
  /** A client on a copy of SCIM_TENANT of each test's own. */
  scim: ScimClient;
  /** POSTs a User (GRACE unless told): 201. */
  create: (body?: object) => ReturnType<ScimClient['write']>;
  /** The change log of an identity of the test's tenant: type and fields. */
  events: (identityId: string) => Promise<{ type: string; fields: string[] }[]>;
}

/** The service, and a SCIM client on a tenant of its own for each test. */
export function useScimUsers(): ScimUsers {
  const t = useTestApp();
  const scim = useScimClient(t, undefined, { each: true });
  return {
    t,
    scim,
    create: (body = GRACE) => scim.write('post', '/Users', body).expect(201),
    events: (identityId) =>
      t.database.prisma.identityEvent.findMany({
        where: { tenantId: scim.tenant.id, identityId },
        orderBy: { id: 'asc' },
        select: { type: true, fields: true },
      }),
  };
}
