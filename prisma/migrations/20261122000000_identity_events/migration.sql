-- The change log (a transactional outbox): one row per change to an
-- identity, written in the same transaction as the change. No foreign keys:
-- the log outlives the identities and tenants it speaks of.

-- CreateTable
CREATE TABLE "identity_event" (
    "id" BIGSERIAL NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "identity_id" TEXT COLLATE "C" NOT NULL,
    "type" TEXT NOT NULL,
    "fields" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "related_identity_id" TEXT COLLATE "C",
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "identity_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "identity_event_tenant_id_id_idx" ON "identity_event"("tenant_id", "id");
