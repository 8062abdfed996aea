-- A token issuer may name identities by their verified e-mail address
-- (identityMatch "verifiedEmail", docs/api.md): a tenant's explicit choice,
-- looked up case-insensitively by tenant through this index.

-- AlterTable
ALTER TABLE "token_issuer" DROP CONSTRAINT "token_issuer_identity_match_check",
ADD CONSTRAINT "token_issuer_identity_match_check" CHECK ("identity_match" IN ('identityId', 'externalId', 'userName', 'account', 'verifiedEmail'));

-- CreateIndex
CREATE INDEX "identity_tenant_id_lower_email_address_idx" ON "identity"("tenant_id", lower("email_address"));
