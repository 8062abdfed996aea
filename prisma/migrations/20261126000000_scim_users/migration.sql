-- SCIM provisioning (docs/scim.md). A provisioning client's own id for an
-- identity (externalId), looked up by tenant. The userName is the key
-- clients provision by: unique per tenant, compared case-insensitively, so
-- the index is on its lower-case form. A tenant whose identities share a
-- userName (in any case) must make them distinct before this migration runs;
-- it fails, naming the duplicate, and changes nothing otherwise.

-- AlterTable
ALTER TABLE "identity" ADD COLUMN "external_id" TEXT;

-- CreateIndex
CREATE INDEX "identity_tenant_id_external_id_idx" ON "identity"("tenant_id", "external_id");

-- CreateIndex
CREATE UNIQUE INDEX "identity_tenant_id_lower_user_name_key" ON "identity"("tenant_id", lower("user_name"));
