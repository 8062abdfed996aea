import { problemBody } from './problem';
import type { TestApp } from './test-app';
import type { TestTenant } from './test-tenant';

/**
 * Requests to a tenant's admin API (`/{tenant}/api/admin/v1`) with its
 * copy of an admin token: `tenant` gives the tenant of the test at hand.
 */
export function adminRequests(
  t: TestApp,
  tenant: () => TestTenant,
  token: string,
) {
  const admin = (path: string) => `/${tenant().id}/api/admin/v1${path}`;
  const auth = () => `Bearer ${tenant().token(token)}`;
  const post = (path: string, body: object) =>
    t.http().post(admin(path)).set('Authorization', auth()).send(body);
  return {
    admin,
    /** The caller's Authorization header. */
    auth,
    post,
    /** Every row of a list (its first 1000): 200. */
    list: async (path: string) =>
      (
        await t
          .http()
          .get(admin(`${path}?limit=1000`))
          .set('Authorization', auth())
          .expect(200)
      ).body as Record<string, unknown>[],
    /** Sends `count` POSTs at once: how many made a row, and the others' status and body. */
    postAtOnce: async (
      path: string,
      count: number,
      body: (i: number) => object,
    ) => {
      const answers = await Promise.all(
        Array.from({ length: count }, (_, i) => post(path, body(i))),
      );
      return {
        made: answers.filter((a) => a.status === 201).length,
        refused: answers
          .filter((a) => a.status !== 201)
          .map((a) => [a.status, a.body]),
      };
    },
    /** The 400 of a POST past a cap or a quota: the field it names and why. */
    refusal: (path: string, field: string, message: string) => [
      400,
      {
        ...problemBody(
          400,
          'invalid-request',
          `${field} ${message}`,
          admin(path),
        ),
        title: 'Invalid request',
        errors: [{ field, message }],
      },
    ],
  };
}
