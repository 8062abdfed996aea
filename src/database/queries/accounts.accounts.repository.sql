-- The statements of src/accounts/accounts.repository.ts, as PostgreSQL receives them.
-- Written by `npm run sql`; src/database/query-files.spec.ts holds them.

-- PROVIDER_ACCOUNTS
-- $1 identityId, $2 identityId, $3 tenantId
select
  "p"."account_provider_id" as "accountProviderId",
  "p"."display_name" as "providerDisplayName",
  "p"."provider_image_url" as "providerImageUrl",
  "p"."sign_in_url" as "signInUrl",
  "p"."allows_multiple_accounts" as "allowsMultipleAccounts",
  "p"."link" is not null as "linkable",
  CASE
    WHEN p.link IS NULL THEN '0'
    ELSE coalesce(
      (
        (
          select
            floor(
              extract(
                epoch
                from
                  max(la.created_at)
              ) * 1000
            )::int8::text as "at"
          from
            "link_attempt" as "la"
          where
            "la"."tenant_id" = "p"."tenant_id"
            and "la"."identity_id" = $1
            and "la"."account_provider_id" = "p"."account_provider_id"
        )
      ),
      '0'
    )
  END as "lastLinkStart",
  "a"."account_id" as "accountId",
  "a"."issued_user_id" as "issuedUserId",
  "a"."account_private_personal_identifier" as "accountPrivatePersonalIdentifier",
  "a"."display_name" as "displayName",
  "a"."email_address" as "emailAddress",
  "a"."account_profile_url" as "accountProfileUrl",
  "a"."picture_url" as "pictureUrl"
from
  "account_provider" as "p"
  left join "account" as "a" on "a"."tenant_id" = "p"."tenant_id"
  and "a"."account_provider_id" = "p"."account_provider_id"
  and "a"."identity_id" = $2
where
  "p"."tenant_id" = $3
order by
  "p"."position",
  "a"."account_id";

-- LOCK_IDENTITY
-- $1 tenantId, $2 identityId
select
  1 as "one"
from
  "identity"
where
  "tenant_id" = $1
  and "identity_id" = $2
for update;

-- INSERT_ACCOUNT
-- $1 tenantId, $2 accountId, $3 identityId, $4 accountProviderId
-- $5 issuedUserId, $6 accountPrivatePersonalIdentifier, $7 displayName
-- $8 emailAddress, $9 accountProfileUrl, $10 pictureUrl
insert into
  "account" (
    "tenant_id",
    "account_id",
    "identity_id",
    "account_provider_id",
    "issued_user_id",
    "account_private_personal_identifier",
    "display_name",
    "email_address",
    "account_profile_url",
    "picture_url"
  )
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
on conflict do nothing
returning
  "account_id";

-- ACCOUNT_FACTS
-- $1 tenantId, $2 accountProviderId, $3 tenantId, $4 identityId
-- $5 accountProviderId, $6 tenantId, $7 accountProviderId, $8 issuedUserId
-- $9 tenantId, $10 accountId
select
  (
    select
      "allows_multiple_accounts"
    from
      "account_provider"
    where
      "tenant_id" = $1
      and "account_provider_id" = $2
  ) as "allowsMultiple",
  exists (
    select
      1 as "one"
    from
      "account"
    where
      "tenant_id" = $3
      and "identity_id" = $4
      and "account_provider_id" = $5
  ) as "hasOne",
  (
    select
      "identity_id"
    from
      "account"
    where
      "tenant_id" = $6
      and "account_provider_id" = $7
      and "issued_user_id" = $8
  ) as "usedBy",
  exists (
    select
      1 as "one"
    from
      "account"
    where
      "tenant_id" = $9
      and "account_id" = $10
  ) as "idTaken";

-- REMOVE_ACCOUNT
-- $1 tenantId, $2 identityId, $3 accountId, $4 tenantId, $5 = 'updated'
-- $6 = ["accounts"], $7 traceParent, $8 = 7486, $9 tenantId
with
  "removed" as (
    delete from "account"
    where
      "tenant_id" = $1
      and "identity_id" = $2
      and "account_id" = $3
    returning
      "identity_id" as "identityId"
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
      $4,
      s."identityId",
      $5,
      $6::text[],
      $7::text
    FROM
      "removed" AS s
      CROSS JOIN LATERAL (
        SELECT
          pg_advisory_xact_lock($8::int, hashtext ($9))
        WHERE
          s."identityId" IS NOT NULL
      ) AS ordered
  )
select
  count(*)::int as "removed"
from
  "removed";
