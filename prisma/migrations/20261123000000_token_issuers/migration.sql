-- Authorization servers whose signed JWTs a tenant accepts as tokens.

-- CreateTable
CREATE TABLE "token_issuer" (
    "tenant_id" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "jwks_uri" TEXT,
    "audiences" TEXT[] NOT NULL,
    "algorithms" TEXT[] NOT NULL,
    "identity_claim" TEXT NOT NULL DEFAULT 'sub',
    "account_claim" TEXT,
    "app_id_claims" TEXT[] NOT NULL DEFAULT ARRAY['client_id', 'azp']::TEXT[],
    "scope_claim" TEXT NOT NULL DEFAULT 'scope',

    CONSTRAINT "token_issuer_pkey" PRIMARY KEY ("tenant_id","issuer")
);

-- AddForeignKey
ALTER TABLE "token_issuer" ADD CONSTRAINT "token_issuer_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
