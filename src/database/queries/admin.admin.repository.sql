-- The statements of src/admin/admin.repository.ts, as PostgreSQL receives them.
-- Written by `npm run sql`; src/database/query-files.spec.ts holds them.

-- LOCK_SETTINGS
-- $1 tenantId
select
  "id",
  "name",
  "admin_roles" as "adminRoles",
  "link_return_urls" as "linkReturnUrls"
from
  "tenant"
where
  "id" = $1
for update;
