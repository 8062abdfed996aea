-- The statements of src/database/tenant-lock.ts, as PostgreSQL receives them.
-- Written by `npm run sql`; src/database/query-files.spec.ts holds them.

-- TENANT_LOCK
-- $1 key, $2 tenantId
select
  1 as "locked"
from
  pg_advisory_xact_lock($1::int, hashtext ($2)) as "lock";
