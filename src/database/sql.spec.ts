import { sql } from 'kysely';
import { Prisma } from '../generated/prisma/client';
import { builder, compile, condition, statement } from './sql';

describe('statement', () => {
  const ROLES = statement((p: { tenantId: string; after: string }) =>
    builder
      .selectFrom('role_assignment')
      .select('role_name as roleName')
      .where('tenant_id', '=', p.tenantId)
      .where('role_name', '>', p.after)
      .where('identity_id', '<>', 'constant')
      .where('role_name', '<>', p.tenantId),
  );

  it('compiles once, with numbered placeholders', () => {
    expect(ROLES.text).toBe(
      'select "role_name" as "roleName" from "role_assignment" where "tenant_id" = $1 and "role_name" > $2 and "identity_id" <> $3 and "role_name" <> $4',
    );
  });

  it('binds each placeholder to its parameter by name; a written value stays', () => {
    expect(ROLES.values({ tenantId: 't', after: 'a' })).toStrictEqual([
      't',
      'a',
      'constant',
      't',
    ]);
    expect(ROLES.values({ tenantId: 'u', after: 'b' })).toStrictEqual([
      'u',
      'b',
      'constant',
      'u',
    ]);
  });
});

describe('condition', () => {
  it('puts a Prisma fragment in parentheses, its values still parameters', () => {
    const query = builder
      .selectFrom('identity as i')
      .select('i.identity_id')
      .where('i.tenant_id', '=', 't')
      .where(
        condition(Prisma.sql`i.user_name = ${'a'} OR i.external_id = ${'b'}`),
      );
    expect(compile(query).sql).toBe(
      'select "i"."identity_id" from "identity" as "i" where "i"."tenant_id" = $1 and (i.user_name = $2 OR i.external_id = $3)',
    );
    expect(compile(query).parameters).toStrictEqual(['t', 'a', 'b']);
  });

  it('keeps a fragment without values whole', () => {
    const query = builder
      .selectFrom('identity')
      .select(sql.lit(1).as('one'))
      .where(condition(Prisma.sql`TRUE`));
    expect(compile(query).sql).toBe(
      'select 1 as "one" from "identity" where (TRUE)',
    );
  });
});
