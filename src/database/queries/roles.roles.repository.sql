-- The statements of src/roles/roles.repository.ts, as PostgreSQL receives them.
-- Written by `npm run sql`; src/database/query-files.spec.ts holds them.

-- ROLE_NAMES[0][0]: roleNames(false, false)
-- $1 tenantId, $2 identityId
select
  "role_name" as "roleName"
from
  "role_assignment"
where
  "tenant_id" = $1
  and "identity_id" = $2
order by
  "role_name";

-- ROLE_NAMES[0][1]: roleNames(false, true)
-- $1 tenantId, $2 identityId, $3 limit
select
  "role_name" as "roleName"
from
  "role_assignment"
where
  "tenant_id" = $1
  and "identity_id" = $2
order by
  "role_name"
limit
  $3;

-- ROLE_NAMES[1][0]: roleNames(true, false)
-- $1 tenantId, $2 identityId, $3 after
select
  "role_name" as "roleName"
from
  "role_assignment"
where
  "tenant_id" = $1
  and "identity_id" = $2
  and "role_name" > $3
order by
  "role_name";

-- ROLE_NAMES[1][1]: roleNames(true, true)
-- $1 tenantId, $2 identityId, $3 after, $4 limit
select
  "role_name" as "roleName"
from
  "role_assignment"
where
  "tenant_id" = $1
  and "identity_id" = $2
  and "role_name" > $3
order by
  "role_name"
limit
  $4;
