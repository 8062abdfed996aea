-- The statements of src/database/database.ts, as PostgreSQL receives them.
-- Written by `npm run sql`; src/database/query-files.spec.ts holds them.

-- PRIMARY_POSITION
select
  pg_current_wal_lsn()::text as "lsn";

-- WRITE_POSITION
select
  pg_current_wal_insert_lsn()::text as "lsn";
