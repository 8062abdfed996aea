-- The statements of src/auth/sign-in.repository.ts, as PostgreSQL receives them.
-- Written by `npm run sql`; src/database/query-files.spec.ts holds them.

-- RECORD_SIGN_IN
-- $1 at, $2 tenantId, $3 identityId, $4 at, $5 tenantId, $6 = 'updated'
-- $7 = ["lastLogin"], $8 traceParent, $9 = 7486, $10 tenantId
with
  "updated" as (
    update "identity" as "i"
    set
      "last_login" = $1,
      "version" = nextval('identity_version_seq'),
      "updated_at" = now()
    where
      "i"."tenant_id" = $2
      and "i"."identity_id" = $3
      and (
        "i"."last_login" is null
        or "i"."last_login" < $4
      )
    returning
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
  ),
  "event" as (
    INSERT INTO
      identity_event (
        tenant_id,
        identity_id,
        type,
        fields,
        trace_parent
      )
    SELECT
      $5,
      s."identityId",
      $6,
      $7::text[],
      $8::text
    FROM
      "updated" AS s
      CROSS JOIN LATERAL (
        SELECT
          pg_advisory_xact_lock($9::int, hashtext ($10))
        WHERE
          s."identityId" IS NOT NULL
      ) AS ordered
  )
select
  *
from
  "updated";

-- KEY_TAKEN.externalId
-- $1 tenantId, $2 subject
select
  1 as "one"
from
  "identity"
where
  "tenant_id" = $1
  and "external_id" = $2;

-- KEY_TAKEN.userName
-- $1 tenantId, $2 subject
select
  1 as "one"
from
  "identity"
where
  "tenant_id" = $1
  and ascii_lower (user_name) = ascii_lower ($2);

-- KEY_TAKEN.verifiedEmail
-- $1 tenantId, $2 subject, $3 = true
select
  1 as "one"
from
  "identity"
where
  "tenant_id" = $1
  and ascii_lower (email_address) = ascii_lower ($2)
  and "email_address_verified" = $3;

-- KEY_TAKEN.account
-- $1 tenantId, $2 provider, $3 subject
select
  1 as "one"
from
  "account"
where
  "tenant_id" = $1
  and "account_provider_id" = $2
  and "issued_user_id" = $3;

-- LOCK_KEY
-- $1 = 7489, $2 prefix, $3 folded, $4 subject, $5 subject
select
  1 as "locked"
from
  pg_advisory_xact_lock(
    $1::int,
    hashtext (
      $2::text || CASE
        WHEN $3::boolean THEN ascii_lower ($4::text)
        ELSE $5::text
      END
    )
  ) as "lock";
