-- The statements of src/events/events.repository.ts, as PostgreSQL receives them.
-- Written by `npm run sql`; src/database/query-files.spec.ts holds them.

-- APPEND_ADMIN_EVENT
-- $1 tenantId, $2 actor, $3 action, $4 target, $5 before, $6 after
insert into
  "admin_event" (
    "tenant_id",
    "actor",
    "action",
    "target",
    "before",
    "after"
  )
values
  ($1, $2, $3, $4, $5::jsonb, $6::jsonb);

-- PRUNE_ADMIN_EVENTS
-- $1 = 1000, $2 days
delete from "admin_event"
where
  "id" in (
    select
      "oldest"."id"
    from
      (
        select
          "id",
          "occurred_at"
        from
          "admin_event"
        order by
          "id"
        limit
          $1
      ) as "oldest"
    where
      "oldest"."occurred_at" < now() - ($2 * interval '1 day')
  )
returning
  "id";

-- IDENTITY_EVENTS
-- $1 tenantId, $2 identityId, $3 beforeId, $4 limit
select
  "id",
  "tenant_id" as "tenantId",
  "identity_id" as "identityId",
  "type",
  "fields",
  "related_identity_id" as "relatedIdentityId",
  "occurred_at" as "occurredAt"
from
  "identity_event"
where
  "tenant_id" = $1
  and "identity_id" = $2
  and "id" < $3
order by
  "id" desc
limit
  $4;
