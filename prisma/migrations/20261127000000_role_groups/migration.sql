-- A role is a SCIM Group. Its name is the Group's displayName and can be
-- changed, so the Group needs an id of its own that survives a rename. The
-- version comes from the identities' sequence, so that a Group's ETag is
-- never reused either; external_id is the provisioning client's own id.
-- Existing roles get their ids, versions and timestamps from the defaults.

-- AlterTable
ALTER TABLE "role"
    ADD COLUMN "id" TEXT COLLATE "C" NOT NULL DEFAULT (gen_random_uuid())::text,
    ADD COLUMN "external_id" TEXT COLLATE "C",
    ADD COLUMN "version" BIGINT NOT NULL DEFAULT nextval('identity_version_seq'::regclass),
    ADD COLUMN "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    ADD COLUMN "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateIndex
CREATE UNIQUE INDEX "role_tenant_id_id_key" ON "role"("tenant_id", "id");

-- CreateIndex
CREATE INDEX "role_tenant_id_external_id_idx" ON "role"("tenant_id", "external_id");
