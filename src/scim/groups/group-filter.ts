import { Prisma } from '../../generated/prisma/client';
import { FilterAttributes, filterToSql } from '../scim-filter';
import { GROUP_SCHEMA } from '../scim-schemas';

/** The members of role `r`: their identity ids, as `v.value`. */
const members = {
  sql: Prisma.sql`r.name`,
  kind: 'texts',
  caseExact: true,
  some: (condition: Prisma.Sql) => Prisma.sql`EXISTS (
    SELECT 1 FROM (SELECT a.identity_id AS value FROM role_assignment a
                    WHERE a.tenant_id = r.tenant_id AND a.role_name = r.name) v
     WHERE ${condition})`,
} as const;

/**
 * What a Groups filter may name, over role `r`. displayName compares in any
 * case (the Group schema's caseExact is false); ids compare exactly.
 */
export const GROUP_FILTER_ATTRIBUTES: FilterAttributes = {
  id: { sql: Prisma.sql`r.id`, kind: 'text', caseExact: true },
  displayname: { sql: Prisma.sql`r.name`, kind: 'text' },
  externalid: { sql: Prisma.sql`r.external_id`, kind: 'text', caseExact: true },
  members,
  'members.value': members,
  'meta.lastmodified': { sql: Prisma.sql`r.updated_at`, kind: 'time' },
  'meta.created': { sql: Prisma.sql`r.created_at`, kind: 'time' },
};

/** A filter (RFC 7644 §3.4.2.2) on Groups as a parameterised SQL condition; TRUE without one. */
export function groupFilter(text: string | undefined): Prisma.Sql {
  if (text === undefined) return Prisma.sql`TRUE`;
  return filterToSql(text, GROUP_FILTER_ATTRIBUTES, GROUP_SCHEMA);
}
