-- The time of a subscription's last replay: replays of one subscription
-- are WEBHOOK_REPLAY_SECONDS apart at least.
ALTER TABLE "webhook" ADD COLUMN "replayed_at" TIMESTAMPTZ(3);
