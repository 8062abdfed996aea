-- The statements of src/ops/readiness.repository.ts, as PostgreSQL receives them.
-- Written by `npm run sql`; src/database/query-files.spec.ts holds them.

-- APPLIED
select
  "migration_name" as "name"
from
  "_prisma_migrations"
where
  "finished_at" is not null
  and "rolled_back_at" is null;
