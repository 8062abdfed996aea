-- The statements of src/admin/account-providers.repository.ts, as PostgreSQL receives them.
-- Written by `npm run sql`; src/database/query-files.spec.ts holds them.

-- SEALED_SECRETS
select
  "tenant_id" as "tenantId",
  "account_provider_id" as "accountProviderId",
  client_secret as "sealed"
from
  "account_provider"
where
  "client_secret" is not null
order by
  "tenant_id",
  "account_provider_id";

-- RESEAL_SECRET
-- $1 resealed, $2 tenantId, $3 accountProviderId, $4 sealed
update "account_provider"
set
  "client_secret" = $1
where
  "tenant_id" = $2
  and "account_provider_id" = $3
  and "client_secret" = $4
returning
  "account_provider_id";

-- LOCK_PROVIDER
-- $1 tenantId, $2 id
select
  "account_provider_id" as "accountProviderId",
  "position",
  "display_name" as "displayName",
  "provider_image_url" as "providerImageUrl",
  "sign_in_url" as "signInUrl",
  "allows_multiple_accounts" as "allowsMultipleAccounts",
  "link",
  "client_secret_set_at" as "clientSecretSetAt"
from
  "account_provider"
where
  "tenant_id" = $1
  and "account_provider_id" = $2
for update;

-- REMOVE_ACCOUNTS
-- $1 tenantId, $2 id
delete from "account"
where
  "tenant_id" = $1
  and "account_provider_id" = $2
returning
  "identity_id" as "identityId";
