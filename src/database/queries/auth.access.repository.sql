-- The statements of src/auth/access.repository.ts, as PostgreSQL receives them.
-- Written by `npm run sql`; src/database/query-files.spec.ts holds them.

-- TOKEN_CALLER
-- $1 tokenHash
select
  "t"."id" as "tokenId",
  "t"."tenant_id" as "tenantId",
  "t"."type" as "type",
  "t"."account_id" as "accountId",
  "t"."app_id" as "appId",
  "t"."scopes" as "scopes",
  "t"."expires_at" as "expiresAt",
  "t"."revoked_at" as "revokedAt",
  "t"."last_used_at" as "lastUsedAt",
  exists (
    select
      1 as "one"
    from
      "role_assignment" as "ra"
      inner join "tenant" as "tn" on "tn"."id" = "ra"."tenant_id"
    where
      "ra"."tenant_id" = "t"."tenant_id"
      and "ra"."identity_id" = "t"."identity_id"
      and "ra"."role_name" = any ("tn"."admin_roles")
  ) as "isAdmin",
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
  "i"."version" as "version"
from
  "token" as "t"
  left join "identity" as "i" on "i"."tenant_id" = "t"."tenant_id"
  and "i"."identity_id" = "t"."identity_id"
where
  "t"."token_hash" = $1;

-- TOUCH_TOKEN
-- $1 tokenId
update "token"
set
  "last_used_at" = now()
where
  "id" = $1::uuid
  and (
    "last_used_at" is null
    or "last_used_at" < now() - interval '1 minute'
  );

-- ACCESS_FACTS
-- $1 tenantId, $2 targetId, $3 callerId, $4 tenantId, $5 callerId, $6 tenantId
-- $7 targetId, $8 tenantId, $9 targetId, $10 = 1
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
  exists (
    select
      1 as "one"
    from
      "friendship" as "f"
    where
      "f"."tenant_id" = $1
      and "f"."identity_id" = $2
      and "f"."friend_id" = $3
  ) as "isFriend",
  "m"."identity_id" as "mergedInto",
  exists (
    select
      1 as "one"
    from
      "friendship" as "f"
    where
      "f"."tenant_id" = $4
      and "f"."identity_id" = "m"."identity_id"
      and "f"."friend_id" = $5
  ) as "mergedIntoIsFriend"
from
  (
    select
      1 as "x"
  ) as "one"
  left join "identity" as "i" on "i"."tenant_id" = $6
  and "i"."identity_id" = $7
  left join lateral (
    select
      "o"."identity_id"
    from
      "identity" as "o"
    where
      "i"."identity_id" is null
      and "o"."tenant_id" = $8
      and "o"."old_identity_ids" <> '{}'
      and "o"."old_identity_ids" @> ARRAY[$9]::text[]
    limit
      $10
  ) as "m" on true;

-- IDENTITY_CALLER: identityCaller(match) #1
-- $1 accountId, $2 tenantId, $3 subject, $4 = 2
select
  exists (
    select
      1 as "one"
    from
      "role_assignment" as "ra"
      inner join "tenant" as "tn" on "tn"."id" = "ra"."tenant_id"
    where
      "ra"."tenant_id" = "i"."tenant_id"
      and "ra"."identity_id" = "i"."identity_id"
      and "ra"."role_name" = any ("tn"."admin_roles")
  ) as "isAdmin",
  (
    select
      "a"."account_id"
    from
      "account" as "a"
    where
      "a"."tenant_id" = "i"."tenant_id"
      and "a"."identity_id" = "i"."identity_id"
      and "a"."account_id" = $1
  ) as "accountId",
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
  "i"."version" as "version"
from
  "identity" as "i"
where
  "i"."tenant_id" = $2
  and "i"."identity_id" = $3
limit
  $4;

-- IDENTITY_CALLER: identityCaller(match) #2
-- $1 accountId, $2 tenantId, $3 subject, $4 = 2
select
  exists (
    select
      1 as "one"
    from
      "role_assignment" as "ra"
      inner join "tenant" as "tn" on "tn"."id" = "ra"."tenant_id"
    where
      "ra"."tenant_id" = "i"."tenant_id"
      and "ra"."identity_id" = "i"."identity_id"
      and "ra"."role_name" = any ("tn"."admin_roles")
  ) as "isAdmin",
  (
    select
      "a"."account_id"
    from
      "account" as "a"
    where
      "a"."tenant_id" = "i"."tenant_id"
      and "a"."identity_id" = "i"."identity_id"
      and "a"."account_id" = $1
  ) as "accountId",
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
  "i"."version" as "version"
from
  "identity" as "i"
where
  "i"."tenant_id" = $2
  and "i"."external_id" = $3
limit
  $4;

-- IDENTITY_CALLER: identityCaller(match) #3
-- $1 accountId, $2 tenantId, $3 subject, $4 = 2
select
  exists (
    select
      1 as "one"
    from
      "role_assignment" as "ra"
      inner join "tenant" as "tn" on "tn"."id" = "ra"."tenant_id"
    where
      "ra"."tenant_id" = "i"."tenant_id"
      and "ra"."identity_id" = "i"."identity_id"
      and "ra"."role_name" = any ("tn"."admin_roles")
  ) as "isAdmin",
  (
    select
      "a"."account_id"
    from
      "account" as "a"
    where
      "a"."tenant_id" = "i"."tenant_id"
      and "a"."identity_id" = "i"."identity_id"
      and "a"."account_id" = $1
  ) as "accountId",
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
  "i"."version" as "version"
from
  "identity" as "i"
where
  "i"."tenant_id" = $2
  and ascii_lower ("i"."user_name") = ascii_lower ($3)
limit
  $4;

-- IDENTITY_CALLER: identityCaller(match) #4
-- $1 accountProvider, $2 subject, $3 tenantId, $4 tenantId, $5 accountProvider
-- $6 subject, $7 = 2
select
  exists (
    select
      1 as "one"
    from
      "role_assignment" as "ra"
      inner join "tenant" as "tn" on "tn"."id" = "ra"."tenant_id"
    where
      "ra"."tenant_id" = "i"."tenant_id"
      and "ra"."identity_id" = "i"."identity_id"
      and "ra"."role_name" = any ("tn"."admin_roles")
  ) as "isAdmin",
  (
    select
      "a"."account_id"
    from
      "account" as "a"
    where
      "a"."tenant_id" = "i"."tenant_id"
      and "a"."identity_id" = "i"."identity_id"
      and "a"."account_provider_id" = $1
      and "a"."issued_user_id" = $2
  ) as "accountId",
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
  "i"."version" as "version"
from
  "identity" as "i"
where
  "i"."tenant_id" = $3
  and "i"."identity_id" = (
    select
      "a"."identity_id"
    from
      "account" as "a"
    where
      "a"."tenant_id" = $4
      and "a"."account_provider_id" = $5
      and "a"."issued_user_id" = $6
  )
limit
  $7;

-- IDENTITY_CALLER: identityCaller(match) #5
-- $1 accountId, $2 tenantId, $3 subject, $4 = true, $5 = 2
select
  exists (
    select
      1 as "one"
    from
      "role_assignment" as "ra"
      inner join "tenant" as "tn" on "tn"."id" = "ra"."tenant_id"
    where
      "ra"."tenant_id" = "i"."tenant_id"
      and "ra"."identity_id" = "i"."identity_id"
      and "ra"."role_name" = any ("tn"."admin_roles")
  ) as "isAdmin",
  (
    select
      "a"."account_id"
    from
      "account" as "a"
    where
      "a"."tenant_id" = "i"."tenant_id"
      and "a"."identity_id" = "i"."identity_id"
      and "a"."account_id" = $1
  ) as "accountId",
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
  "i"."version" as "version"
from
  "identity" as "i"
where
  "i"."tenant_id" = $2
  and (
    ascii_lower ("i"."email_address") = ascii_lower ($3)
    and "i"."email_address_verified" = $4
  )
limit
  $5;
