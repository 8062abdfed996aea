-- The audit log of tenant administration (docs/operations.md): who changed
-- a tenant's settings or tokens, what, and the settings before and after;
-- never a token secret. Written in the transaction of the change. No
-- foreign keys: like the change log, it outlives what it speaks of.

-- CreateTable
CREATE TABLE "admin_event" (
    "id" BIGSERIAL NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "before" JSONB,
    "after" JSONB,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "admin_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "admin_event_tenant_id_id_idx" ON "admin_event"("tenant_id", "id");
