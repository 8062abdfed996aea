-- Client secrets of account linking are tenant data (docs/security.md,
-- client secrets): written through the admin API, the tenant file or the
-- command line, stored encrypted under an operator key, never shown.
-- `client_secret` is `<key id>.<nonce>.<ciphertext and tag>` (AES-256-GCM,
-- base64url), bound to its tenant and provider; `client_secret_set_at`
-- says when it was set, the one thing answers and exports say of it.

-- AlterTable
ALTER TABLE "account_provider"
  ADD COLUMN "client_secret" TEXT,
  ADD COLUMN "client_secret_set_at" TIMESTAMPTZ(3),
  ADD CONSTRAINT "account_provider_client_secret_check"
    CHECK (("client_secret" IS NULL) = ("client_secret_set_at" IS NULL)
           AND ("client_secret" IS NULL OR "link" IS NOT NULL));

-- Link settings used to name an environment variable of the service that
-- held the secret: a tenant's settings named the operator's environment.
-- The names go; such a provider links as a public client until a secret is
-- set for it (docs/operations.md, upgrading).
UPDATE "account_provider"
   SET "link" = "link" - 'clientSecretEnv'
 WHERE "link" ? 'clientSecretEnv';
