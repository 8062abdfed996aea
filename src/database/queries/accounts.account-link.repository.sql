-- The statements of src/accounts/account-link.repository.ts, as PostgreSQL receives them.
-- Written by `npm run sql`; src/database/query-files.spec.ts holds them.

-- START_ATTEMPT
-- $1 state, $2 ticketHash, $3 tenantId, $4 identityId, $5 accountProviderId
-- $6 codeVerifier, $7 nonce, $8 returnUrl, $9 expiresInSeconds
insert into
  "link_attempt" (
    "state",
    "ticket_hash",
    "tenant_id",
    "identity_id",
    "account_provider_id",
    "code_verifier",
    "nonce",
    "return_url",
    "expires_at"
  )
values
  (
    $1,
    $2,
    $3,
    $4,
    $5,
    $6,
    $7,
    $8,
    now() + make_interval(secs => $9)
  )
on conflict ("ticket_hash") do nothing
returning
  "state";

-- PRUNE_ATTEMPTS
-- $1 keepSeconds
delete from "link_attempt"
where
  "created_at" < now() - make_interval(secs => $1)
  and (
    "confirm_expires_at" is null
    or "confirm_expires_at" < now()
  );

-- CLAIM_ATTEMPT
-- $1 state, $2 tenantId, $3 state, $4 tenantId
with
  "taken" as (
    update "link_attempt"
    set
      "used_at" = now()
    where
      "state" = $1
      and "tenant_id" = $2
      and "used_at" is null
      and "expires_at" > now()
    returning
      "state",
      "tenant_id" as "tenantId",
      "identity_id" as "identityId",
      "account_provider_id" as "accountProviderId",
      "code_verifier" as "codeVerifier",
      "nonce",
      "return_url" as "returnUrl",
      true as "live"
  )
select
  *
from
  "taken"
union all
select
  "state",
  "tenant_id" as "tenantId",
  "identity_id" as "identityId",
  "account_provider_id" as "accountProviderId",
  '' as "codeVerifier",
  '' as "nonce",
  "return_url" as "returnUrl",
  false as "live"
from
  "link_attempt"
where
  "state" = $3
  and "tenant_id" = $4
  and not exists (
    select
      1 as "one"
    from
      "taken"
  );

-- AWAIT_CONFIRMATION
-- $1 account, $2 codeHash, $3 expiresInSeconds, $4 state, $5 tenantId
update "link_attempt"
set
  "account" = $1::jsonb,
  "confirm_hash" = $2,
  "confirm_expires_at" = now() + make_interval(secs => $3)
where
  "state" = $4
  and "tenant_id" = $5
  and "confirm_hash" is null
returning
  "state";

-- TAKE_CONFIRMATION
-- $1 codeHash, $2 tenantId
update "link_attempt"
set
  "confirmed_at" = now()
where
  "confirm_hash" = $1
  and "tenant_id" = $2
  and "confirmed_at" is null
returning
  "identity_id" as "identityId",
  "account",
  confirm_expires_at > now() as "live";
