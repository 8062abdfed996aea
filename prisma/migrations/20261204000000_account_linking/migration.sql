-- Account linking through signInUrl (docs/api.md, linking an account):
-- a provider's link settings (how the service sends a browser to it; a
-- client secret only as the name of an environment variable), the
-- tenant's allowed return URLs, the key of link tickets, and the link
-- attempts under way, each single-use, kept until no ticket of their time
-- can be presented again.

-- AlterTable
ALTER TABLE "account_provider" ADD COLUMN "link" JSONB;

-- AlterTable
ALTER TABLE "tenant" ADD COLUMN "link_return_urls" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "link_attempt" (
    "state" TEXT NOT NULL,
    "ticket_hash" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "identity_id" TEXT NOT NULL,
    "account_provider_id" TEXT NOT NULL,
    "code_verifier" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "return_url" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),

    CONSTRAINT "link_attempt_pkey" PRIMARY KEY ("state")
);

-- CreateIndex
CREATE UNIQUE INDEX "link_attempt_ticket_hash_key" ON "link_attempt"("ticket_hash");

-- CreateIndex
CREATE INDEX "link_attempt_tenant_id_identity_id_account_provider_id_idx" ON "link_attempt"("tenant_id", "identity_id", "account_provider_id");

-- CreateIndex
CREATE INDEX "link_attempt_created_at_idx" ON "link_attempt"("created_at");

-- AddForeignKey
ALTER TABLE "link_attempt" ADD CONSTRAINT "link_attempt_tenant_id_identity_id_fkey" FOREIGN KEY ("tenant_id", "identity_id") REFERENCES "identity"("tenant_id", "identity_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "link_attempt" ADD CONSTRAINT "link_attempt_tenant_id_account_provider_id_fkey" FOREIGN KEY ("tenant_id", "account_provider_id") REFERENCES "account_provider"("tenant_id", "account_provider_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The key of link tickets, made as the ETag key was.
INSERT INTO "service_key" ("name", "secret")
VALUES ('link', sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')));
