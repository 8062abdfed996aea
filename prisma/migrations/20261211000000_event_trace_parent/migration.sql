-- The W3C traceparent of the request that made each change, while tracing
-- is on (NULL otherwise): a webhook delivery of the event continues that
-- trace.
ALTER TABLE "identity_event" ADD COLUMN "trace_parent" TEXT;
