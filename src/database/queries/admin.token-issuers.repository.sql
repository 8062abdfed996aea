-- The statements of src/admin/token-issuers.repository.ts, as PostgreSQL receives them.
-- Written by `npm run sql`; src/database/query-files.spec.ts holds them.

-- LOCK_ISSUER
-- $1 tenantId, $2 issuer
select
  "issuer",
  "position",
  "jwks_uri" as "jwksUri",
  "audiences",
  "algorithms",
  "identity_claim" as "identityClaim",
  "identity_match" as "identityMatch",
  "account_claim" as "accountClaim",
  "app_id_claims" as "appIdClaims",
  "scope_claim" as "scopeClaim",
  "provisioning",
  "account_provider_id" as "accountProvider"
from
  "token_issuer"
where
  "tenant_id" = $1
  and "issuer" = $2
for update;
