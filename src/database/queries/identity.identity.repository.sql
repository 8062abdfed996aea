-- The statements of src/identity/identity.repository.ts, as PostgreSQL receives them.
-- Written by `npm run sql`; src/database/query-files.spec.ts holds them.

-- LOCK_FOR_UPDATE
-- $1 tenantId, $2 identityId
select
  "i"."identity_id" as "identityId",
  "i"."disabled" as "disabled",
  "i"."is_archived" as "isArchived",
  "i"."display_name" as "displayName",
  "i"."user_name" as "userName",
  "i"."external_id" as "externalId",
  "i"."email_address" as "emailAddress",
  "i"."email_addresses" as "emailAddresses",
  "i"."email_address_verified" as "emailAddressVerified",
  "i"."given_name" as "givenName",
  "i"."given_names" as "givenNames",
  "i"."surname" as "surname",
  "i"."surnames" as "surnames",
  "i"."locality" as "locality",
  "i"."localities" as "localities",
  "i"."mobile_phone" as "mobilePhone",
  "i"."mobile_phone_verified" as "mobilePhoneVerified",
  "i"."private_personal_identifier" as "privatePersonalIdentifier",
  "i"."last_login" as "lastLogin",
  "i"."small_pictures" as "smallPictures",
  "i"."medium_pictures" as "mediumPictures",
  "i"."large_pictures" as "largePictures",
  "i"."user_name_password_account_user_name" as "userNamePasswordAccountUserName",
  "i"."old_identity_ids" as "oldIdentityIds",
  "i"."properties" as "properties",
  "i"."version" as "version",
  "i"."scim_attributes" as "scimAttributes",
  nextval('identity_version_seq') as "nextVersion"
from
  "identity" as "i"
where
  "i"."tenant_id" = $1
  and "i"."identity_id" = $2
for update;

-- LOCK_MERGED
-- $1 tenantId, $2 intoId, $3 fromId
select
  "identity_id" as "identityId",
  "old_identity_ids" as "oldIdentityIds"
from
  "identity"
where
  "tenant_id" = $1
  and (
    "identity_id" = $2
    or "identity_id" = $3
  )
order by
  "identity_id"
for update;

-- MERGE_CLASHES
-- $1 tenantId, $2 fromId, $3 intoId, $4 = false
select distinct
  "b"."account_provider_id" as "providerId"
from
  "account" as "b"
  inner join "account_provider" as "p" on "p"."tenant_id" = "b"."tenant_id"
  and "p"."account_provider_id" = "b"."account_provider_id"
  inner join "account" as "a" on "a"."tenant_id" = "b"."tenant_id"
  and "a"."account_provider_id" = "b"."account_provider_id"
where
  "b"."tenant_id" = $1
  and "b"."identity_id" = $2
  and "a"."identity_id" = $3
  and "p"."allows_multiple_accounts" = $4
order by
  "providerId";

-- MOVE_ACCOUNTS
-- $1 intoId, $2 tenantId, $3 fromId
update "account"
set
  "identity_id" = $1
where
  "tenant_id" = $2
  and "identity_id" = $3
returning
  "account_id";

-- MOVE_FRIENDS
-- $1 intoId, $2 tenantId, $3 fromId, $4 intoId, $5 intoId, $6 tenantId
-- $7 fromId, $8 intoId
insert into
  "friendship" ("tenant_id", "identity_id", "friend_id")
select
  "tenant_id",
  $1::text as "identity_id",
  "friend_id"
from
  "friendship"
where
  "tenant_id" = $2
  and "identity_id" = $3
  and "friend_id" <> $4
union all
select
  "tenant_id",
  "friend_id" as "identity_id",
  $5::text as "friend_id"
from
  "friendship"
where
  "tenant_id" = $6
  and "identity_id" = $7
  and "friend_id" <> $8
on conflict do nothing
returning
  "friend_id";

-- MOVE_ROLES
-- $1 intoId, $2 tenantId, $3 fromId
insert into
  "role_assignment" ("tenant_id", "identity_id", "role_name")
select
  "tenant_id",
  $1::text as "identity_id",
  "role_name"
from
  "role_assignment"
where
  "tenant_id" = $2
  and "identity_id" = $3
on conflict do nothing
returning
  "role_name";

-- DRAW_VERSION
select
  nextval('identity_version_seq') as "version";

-- writeAtVersion: built on use, not listed
