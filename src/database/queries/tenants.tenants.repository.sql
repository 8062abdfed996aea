-- The statements of src/tenants/tenants.repository.ts, as PostgreSQL receives them.
-- Written by `npm run sql`; src/database/query-files.spec.ts holds them.

-- KEEP_ROLE_IDS
-- $1 roles, $2 tenantId
UPDATE role r
SET
  id = o.id,
  external_id = o.external_id,
  created_at = o.created_at
FROM
  jsonb_to_recordset($1::jsonb) AS o (
    name text,
    id text,
    external_id text,
    created_at timestamptz
  )
WHERE
  r.tenant_id = $2
  AND r.name = o.name;

-- ANALYZE
ANALYZE identity,
account,
friendship,
role_assignment,
token,
token_issuer;
