-- Just-in-time provisioning: a token issuer may create the identities its
-- tokens name ("jit"), each with an account at one of the tenant's
-- providers. A provider named by an issuer cannot be removed from under it.

-- AlterTable
ALTER TABLE "token_issuer" ADD COLUMN "provisioning" TEXT,
ADD COLUMN "account_provider_id" TEXT,
ADD CONSTRAINT "token_issuer_provisioning_check" CHECK ("provisioning" IN ('jit'));

-- AddForeignKey
ALTER TABLE "token_issuer" ADD CONSTRAINT "token_issuer_tenant_id_account_provider_id_fkey" FOREIGN KEY ("tenant_id", "account_provider_id") REFERENCES "account_provider"("tenant_id", "account_provider_id") ON DELETE NO ACTION ON UPDATE CASCADE;
