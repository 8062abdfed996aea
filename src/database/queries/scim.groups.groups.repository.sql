-- The statements of src/scim/groups/groups.repository.ts, as PostgreSQL receives them.
-- Written by `npm run sql`; src/database/query-files.spec.ts holds them.

-- GROUP
-- $1 tenantId, $2 id
select
  "id",
  "name",
  "external_id" as "externalId",
  "version",
  "created_at" as "createdAt",
  "updated_at" as "updatedAt"
from
  "role" as "r"
where
  "tenant_id" = $1
  and "id" = $2;

-- MEMBERS
-- $1 tenantId, $2 roleNames
select
  "a"."role_name" as "roleName",
  "a"."identity_id" as "identityId",
  "i"."display_name" as "displayName"
from
  "role_assignment" as "a"
  inner join "identity" as "i" on "i"."tenant_id" = "a"."tenant_id"
  and "i"."identity_id" = "a"."identity_id"
where
  "a"."tenant_id" = $1
  and "a"."role_name" = any ($2)
order by
  "a"."role_name",
  "a"."identity_id";

-- CREATE_ROLE
-- $1 tenantId, $2 name, $3 externalId
insert into
  "role" ("tenant_id", "name", "external_id")
values
  ($1, $2, $3)
on conflict ("tenant_id", "name") do nothing
returning
  "id",
  "name",
  "external_id" as "externalId",
  "version",
  "created_at" as "createdAt",
  "updated_at" as "updatedAt";

-- LOCK_ROLE
-- $1 tenantId, $2 id
select
  "id",
  "name",
  "external_id" as "externalId",
  "version",
  "created_at" as "createdAt",
  "updated_at" as "updatedAt"
from
  "role" as "r"
where
  "tenant_id" = $1
  and "id" = $2
for update;

-- DELETE_ROLE
-- $1 tenantId, $2 id
delete from "role"
where
  "tenant_id" = $1
  and "id" = $2;

-- UPDATE_ROLE
-- $1 name, $2 externalId, $3 tenantId, $4 id
update "role"
set
  "name" = $1,
  "external_id" = $2,
  "version" = nextval('identity_version_seq'),
  "updated_at" = now()
where
  "tenant_id" = $3
  and "id" = $4
returning
  "id",
  "name",
  "external_id" as "externalId",
  "version",
  "created_at" as "createdAt",
  "updated_at" as "updatedAt";

-- ADMIN_ROLES
-- $1 tenantId
select
  "admin_roles" as "adminRoles"
from
  "tenant"
where
  "id" = $1;

-- NAME_TAKEN
-- $1 tenantId, $2 name, $3 exceptId
select
  "id"
from
  "role"
where
  "tenant_id" = $1
  and ascii_lower ("name") = ascii_lower ($2)
  and id IS DISTINCT FROM $3::text;

-- LOCK_MEMBERS
-- $1 tenantId, $2 ids
select
  "identity_id" as "identityId"
from
  "identity"
where
  "tenant_id" = $1
  and "identity_id" = any ($2)
order by
  "identity_id"
for key share;
