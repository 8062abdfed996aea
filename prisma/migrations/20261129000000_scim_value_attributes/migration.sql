-- SCIM provisioning (docs/scim.md). A directory gives each of a User's
-- e-mail addresses, phone numbers and photos a `type` and a `primary` flag.
-- The identity keeps the values; this column keeps what the directory said
-- of them, when it differs from what the service would say by itself, so
-- that the User reads back as it was written. NULL: nothing kept.

-- AlterTable
ALTER TABLE "identity" ADD COLUMN "scim_attributes" JSONB;
