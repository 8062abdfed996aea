-- When a registered token was last accepted (docs/api.md, administration).
-- Written at most once a minute per token, by the request that finds it
-- older than that: a cheap answer to "is this token still in use?".

-- AlterTable
ALTER TABLE "token" ADD COLUMN "last_used_at" TIMESTAMPTZ(3);
