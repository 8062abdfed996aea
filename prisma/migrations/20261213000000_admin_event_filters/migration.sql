-- The audit log of one action or one actor, a page at a time (the
-- administration API's GET /events?action=…&actor=…): one index range,
-- however long the tenant's log.

-- CreateIndex
CREATE INDEX "admin_event_tenant_id_action_id_idx" ON "admin_event"("tenant_id", "action", "id");

-- CreateIndex
CREATE INDEX "admin_event_tenant_id_actor_id_idx" ON "admin_event"("tenant_id", "actor", "id");
