-- The statements of src/webhooks/webhooks.repository.ts, as PostgreSQL receives them.
-- Written by `npm run sql`; src/database/query-files.spec.ts holds them.

-- LOCK_WEBHOOK
-- $1 tenantId, $2 id
select
  "id",
  "url",
  "event_types" as "eventTypes",
  "description",
  "enabled",
  "status",
  "secret",
  "previous_secret" as "previousSecret",
  "previous_secret_until" as "previousSecretUntil",
  "secret_created_at" as "secretCreatedAt",
  "position",
  "revision",
  "next_attempt_at" as "nextAttemptAt",
  "failing_since" as "failingSince",
  "failed_attempts" as "failedAttempts",
  "last_delivered_at" as "lastDeliveredAt",
  "last_delivered_event_id" as "lastDeliveredEventId",
  "last_error_at" as "lastErrorAt",
  "last_error" as "lastError",
  "replayed_at" as "replayedAt",
  "created_at" as "createdAt",
  "updated_at" as "updatedAt"
from
  "webhook"
where
  "tenant_id" = $1
  and "id" = $2
for update;

-- BACKLOGS.all: backlogs(false)
-- $1 cap
select
  "w"."id",
  "w"."tenant_id" as "tenantId",
  "w"."status",
  "w"."last_delivered_at" as "lastDeliveredAt",
  "b"."backlog",
  "b"."oldestUndelivered"
from
  "webhook" as "w"
  cross join lateral (
    select
      count(*)::bigint as "backlog",
      min("x"."occurred_at") as "oldestUndelivered"
    from
      (
        select
          "e"."occurred_at",
          "e"."type"
        from
          "identity_event" as "e"
        where
          "e"."tenant_id" = "w"."tenant_id"
          and "e"."id" > "w"."position"
        order by
          "e"."id"
        limit
          $1
      ) as "x"
    where
      (
        '*' = ANY (w.event_types)
        OR ('identity.' || x.type) = ANY (w.event_types)
      )
  ) as "b"
order by
  "w"."id";

-- BACKLOGS.one: backlogs(true)
-- $1 cap, $2 tenantId, $3 id
select
  "w"."id",
  "w"."tenant_id" as "tenantId",
  "w"."status",
  "w"."last_delivered_at" as "lastDeliveredAt",
  "b"."backlog",
  "b"."oldestUndelivered"
from
  "webhook" as "w"
  cross join lateral (
    select
      count(*)::bigint as "backlog",
      min("x"."occurred_at") as "oldestUndelivered"
    from
      (
        select
          "e"."occurred_at",
          "e"."type"
        from
          "identity_event" as "e"
        where
          "e"."tenant_id" = "w"."tenant_id"
          and "e"."id" > "w"."position"
        order by
          "e"."id"
        limit
          $1
      ) as "x"
    where
      (
        '*' = ANY (w.event_types)
        OR ('identity.' || x.type) = ANY (w.event_types)
      )
  ) as "b"
where
  "w"."tenant_id" = $2
  and "w"."id" = $3
order by
  "w"."id";

-- ATTEMPTS
-- $1 webhookId, $2 beforeId, $3 limit
select
  "a"."id",
  "a"."event_id" as "eventId",
  "a"."attempted_at" as "attemptedAt",
  "a"."duration_ms" as "durationMs",
  "a"."status",
  "a"."error",
  "e"."occurred_at" as "eventOccurredAt"
from
  "webhook_attempt" as "a"
  left join "identity_event" as "e" on "e"."id" = "a"."event_id"
where
  "a"."webhook_id" = $1
  and "a"."id" < $2
order by
  "a"."id" desc
limit
  $3;

-- CLAIM
-- $1 held, $2 owner, $3 leaseMs, $4 tenantLimit, $5 limit
with
  "due" as (
    select
      "c"."id",
      "c"."next_attempt_at",
      row_number() OVER (
        PARTITION BY
          c.tenant_id
        ORDER BY
          c.next_attempt_at,
          c.id
      ) + (
        SELECT
          count(*)
        FROM
          unnest($1::text[]) AS h (tenant_id)
        WHERE
          h.tenant_id = c.tenant_id
      ) as "turn"
    from
      "webhook" as "c"
    where
      c.status IN ('active', 'retrying')
      AND c.next_attempt_at <= now()
      AND (
        c.lease_until IS NULL
        OR c.lease_until < now()
      )
      and exists (
        select
          1 as "one"
        from
          "identity_event" as "e"
        where
          "e"."tenant_id" = "c"."tenant_id"
          and "e"."id" > "c"."position"
      )
  )
update "webhook" as "w"
set
  "lease_owner" = $2,
  "lease_until" = now() + ($3 * interval '1 millisecond')
where
  "w"."id" in (
    select
      "c"."id"
    from
      "webhook" as "c"
      inner join "due" on "due"."id" = "c"."id"
    where
      c.status IN ('active', 'retrying')
      AND c.next_attempt_at <= now()
      AND (
        c.lease_until IS NULL
        OR c.lease_until < now()
      )
      and "due"."turn" <= $4
    order by
      "due"."turn",
      "due"."next_attempt_at"
    limit
      $5
    for update of
      "c" skip locked
  )
returning
  "w"."id",
  "w"."tenant_id" as "tenantId",
  "w"."url",
  "w"."event_types" as "eventTypes",
  "w"."position",
  "w"."revision",
  "w"."secret",
  CASE
    WHEN previous_secret_until > now() THEN previous_secret
  END as "previousSecret",
  "w"."failed_attempts" as "failedAttempts";

-- PROGRESSED
-- $1 position, $2 leaseMs, $3 delivered, $4 last, $5 delivered, $6 delivered
-- $7 delivered, $8 id, $9 owner, $10 revision, $11 eventIds, $12 durations
-- $13 statuses, $14 errors
with
  "moved" as (
    update "webhook"
    set
      "position" = $1,
      "lease_until" = now() + ($2 * interval '1 millisecond'),
      "last_delivered_at" = CASE
        WHEN $3 THEN now()
        ELSE last_delivered_at
      END,
      "last_delivered_event_id" = COALESCE($4::bigint, last_delivered_event_id),
      "failed_attempts" = CASE
        WHEN $5 THEN 0
        ELSE failed_attempts
      END,
      "failing_since" = CASE
        WHEN $6 THEN NULL
        ELSE failing_since
      END,
      "status" = CASE
        WHEN $7 THEN 'active'
        ELSE status
      END
    where
      "id" = $8
      and "lease_owner" = $9
      and "revision" = $10
    returning
      "id",
      "secret",
      CASE
        WHEN previous_secret_until > now() THEN previous_secret
      END as "previousSecret"
  ),
  "logged" as (
    insert into
      "webhook_attempt" (
        "webhook_id",
        "event_id",
        "duration_ms",
        "status",
        "error"
      )
    select
      "moved"."id" as "webhook_id",
      "a"."event_id",
      "a"."duration_ms",
      "a"."status",
      "a"."error"
    from
      "moved",
      unnest(
        $11::bigint[],
        $12::int[],
        $13::int[],
        $14::text[]
      ) as a (event_id, duration_ms, status, error)
  )
select
  "secret",
  "previousSecret"
from
  "moved";

-- FAILED
-- $1 delayMs, $2 error, $3 gone, $4 retryMs, $5 gone, $6 = null, $7 = null
-- $8 id, $9 owner, $10 revision
update "webhook"
set
  "failed_attempts" = failed_attempts + 1,
  "failing_since" = COALESCE(failing_since, now()),
  "next_attempt_at" = now() + ($1 * interval '1 millisecond'),
  "last_error_at" = now(),
  "last_error" = $2,
  "status" = CASE
    WHEN $3 THEN 'disabled'
    WHEN COALESCE(failing_since, now()) <= now() - ($4 * interval '1 millisecond') THEN 'failing'
    ELSE 'retrying'
  END,
  "enabled" = enabled
  AND NOT $5,
  "lease_owner" = $6,
  "lease_until" = $7
where
  "id" = $8
  and "lease_owner" = $9
  and "revision" = $10
returning
  "status";

-- RELEASE
-- $1 = null, $2 = null, $3 id, $4 owner
update "webhook"
set
  "lease_owner" = $1,
  "lease_until" = $2,
  "next_attempt_at" = GREATEST(next_attempt_at, now())
where
  "id" = $3
  and "lease_owner" = $4
returning
  "id";

-- PRUNE_ATTEMPTS
-- $1 days
with
  "pruned" as (
    delete from "webhook_attempt"
    where
      "attempted_at" < now() - ($1 * interval '1 day')
    returning
      "id"
  )
select
  count(*)::int as "pruned"
from
  "pruned";
