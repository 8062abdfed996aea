-- The statements of src/scim/scim-users.repository.ts, as PostgreSQL receives them.
-- Written by `npm run sql`; src/database/query-files.spec.ts holds them.

-- USER
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
  "i"."created_at" as "createdAt",
  "i"."updated_at" as "updatedAt",
  "i"."scim_attributes" as "scimAttributes"
from
  "identity" as "i"
where
  "i"."tenant_id" = $1
  and "i"."identity_id" = $2;

-- HOLDS_ADMIN_ROLE
-- $1 tenantId, $2 identityId
select
  exists (
    select
      1 as "one"
    from
      "role_assignment" as "ra"
      inner join "tenant" as "t" on "t"."id" = "ra"."tenant_id"
    where
      "ra"."tenant_id" = $1
      and "ra"."identity_id" = $2
      and "ra"."role_name" = any ("t"."admin_roles")
  ) as "admin";
