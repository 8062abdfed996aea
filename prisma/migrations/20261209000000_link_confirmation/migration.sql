-- A link is recorded only when the identity that started it confirms it
-- (docs/api.md, linking an account): the callback keeps the account it
-- would record, with the hash of a one-time confirmation code and the
-- code's expiry; a confirmation, whoever sends it, spends the code.

-- AlterTable
ALTER TABLE "link_attempt" ADD COLUMN "account" JSONB,
ADD COLUMN "confirm_hash" TEXT,
ADD COLUMN "confirm_expires_at" TIMESTAMPTZ(3),
ADD COLUMN "confirmed_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE UNIQUE INDEX "link_attempt_confirm_hash_key" ON "link_attempt"("confirm_hash");
