-- An identity's events, newest first, a page at a time (the administration
-- API's GET /identities/{id}/events): one index range, however long the
-- tenant's log, which the service never trims.

-- CreateIndex
CREATE INDEX "identity_event_tenant_id_identity_id_id_idx" ON "identity_event"("tenant_id", "identity_id", "id");
