import { useTestApp } from './support/test-app';
import { SCIM_TENANT, useScimClient } from './support/scim-tenant';

const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const MEMBERS = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6'];

// A Group write changes several identities at once while a directory
// changes one of them: each waits for the other, neither fails.
describe('SCIM writes at once', () => {
  const t = useTestApp();
  const scim = useScimClient(t, {
    ...SCIM_TENANT,
    identities: [
      ...SCIM_TENANT.identities,
      ...MEMBERS.map((id) => ({ identityId: id, userName: id })),
    ],
  });

  it('serves Group membership changes and User changes of its members together', async () => {
    const group = await scim
      .write('post', '/Groups', {
        schemas: [GROUP],
        displayName: 'crew',
        members: MEMBERS.map((value) => ({ value })),
      })
      .expect(201);
    const statuses: number[] = [];
    for (let round = 0; round < 20; round++) {
      const members = round % 2 ? MEMBERS : MEMBERS.slice(0, 1);
      const answers = await Promise.all([
        scim.write('put', `/Groups/${group.body.id}`, {
          schemas: [GROUP],
          displayName: 'crew',
          members: members.map((value) => ({ value })),
        }),
        ...MEMBERS.map((id) =>
          scim.write('patch', `/Users/${id}`, {
            schemas: [PATCH],
            Operations: [
              { op: 'replace', path: 'displayName', value: `${id} ${round}` },
            ],
          }),
        ),
      ]);
      statuses.push(...answers.map((res) => res.status));
    }
    expect(statuses).toStrictEqual(Array(20 * 7).fill(200));
    const crew = await scim.send('get', `/Groups/${group.body.id}`).expect(200);
    expect(
      crew.body.members.map((m: { value: string }) => m.value).sort(),
    ).toStrictEqual(MEMBERS);
  });
});
