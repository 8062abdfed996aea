-- Webhooks (docs/api.md, webhooks; docs/operations.md, delivering
-- webhooks): a tenant's subscriptions, each delivering the change log in
-- order from its own position in it, and the log of delivery attempts,
-- kept for a bounded time.

-- Each event records the version its change gave the identity (NULL when
-- the change removed it), so that a delivery carries that version's ETag
-- however late it is sent. Set where the event is written, from the row the
-- same transaction (or statement) has just written, whichever code path
-- wrote it.

-- AlterTable
ALTER TABLE "identity_event" ADD COLUMN "version" BIGINT;

CREATE FUNCTION "identity_event_version"() RETURNS trigger
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF NEW."version" IS NULL AND NEW."type" <> 'deleted' THEN
    SELECT i."version" INTO NEW."version"
      FROM "identity" i
     WHERE i."tenant_id" = NEW."tenant_id" AND i."identity_id" = NEW."identity_id";
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER "identity_event_version" BEFORE INSERT ON "identity_event"
FOR EACH ROW EXECUTE FUNCTION "identity_event_version"();

-- CreateTable
CREATE TABLE "webhook" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "event_types" TEXT[] NOT NULL,
    "description" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "status" TEXT NOT NULL DEFAULT 'active',
    "secret" TEXT NOT NULL,
    "previous_secret" TEXT,
    "previous_secret_until" TIMESTAMPTZ(3),
    "secret_created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "position" BIGINT NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "failing_since" TIMESTAMPTZ(3),
    "failed_attempts" INTEGER NOT NULL DEFAULT 0,
    "lease_owner" TEXT,
    "lease_until" TIMESTAMPTZ(3),
    "last_delivered_at" TIMESTAMPTZ(3),
    "last_delivered_event_id" BIGINT,
    "last_error_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_tenant_id_created_at_id_idx" ON "webhook"("tenant_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "webhook_status_next_attempt_at_idx" ON "webhook"("status", "next_attempt_at");

-- AddForeignKey
ALTER TABLE "webhook" ADD CONSTRAINT "webhook_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "webhook_attempt" (
    "id" BIGSERIAL NOT NULL,
    "webhook_id" TEXT NOT NULL,
    "event_id" BIGINT NOT NULL,
    "attempted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "duration_ms" INTEGER NOT NULL,
    "status" INTEGER,
    "error" TEXT,

    CONSTRAINT "webhook_attempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_attempt_webhook_id_id_idx" ON "webhook_attempt"("webhook_id", "id");

-- CreateIndex
CREATE INDEX "webhook_attempt_attempted_at_idx" ON "webhook_attempt"("attempted_at");

-- AddForeignKey
ALTER TABLE "webhook_attempt" ADD CONSTRAINT "webhook_attempt_webhook_id_fkey" FOREIGN KEY ("webhook_id") REFERENCES "webhook"("id") ON DELETE CASCADE ON UPDATE CASCADE;
