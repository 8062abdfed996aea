-- The statements of src/friends/friends.repository.ts, as PostgreSQL receives them.
-- Written by `npm run sql`; src/database/query-files.spec.ts holds them.

-- FRIENDS
-- $1 tenantId, $2 identityId, $3 tenantId, $4 afterId, $5 afterName
-- $6 afterId, $7 heldAtMost, $8 heldAtMost, $9 limit, $10 limit, $11 limit
-- $12 heldAtMost, $13 = 1
with
  "ids" as (
    select
      ARRAY(
        (
          select
            "f"."friend_id"
          from
            "friendship" as "f"
          where
            "f"."tenant_id" = $1
            and "f"."identity_id" = $2
        )
      ) as "a"
  ),
  "fetched" as (
    select
      coalesce(i.display_name, '') as "sort_name",
      "i"."identity_id",
      "i"."display_name",
      "i"."small_pictures",
      "i"."medium_pictures",
      "i"."large_pictures"
    from
      "identity" as "i"
    where
      "i"."tenant_id" = $3
      and "i"."identity_id" = ANY (
        (
          SELECT
            a
          FROM
            ids
        )::text[]
      )
      and (
        $4::text IS NULL
        OR (coalesce(i.display_name, ''), i.identity_id) > ($5::text, $6::text)
      )
      and (
        $7::int IS NULL
        OR (
          SELECT
            cardinality(a)
          FROM
            ids
        ) <= $8::int
      )
    order by
      "sort_name",
      "i"."identity_id"
    limit
      $9::int + 1
  ),
  "numbered" as (
    select
      *,
      row_number() OVER (
        ORDER BY
          sort_name,
          identity_id
      ) as "n"
    from
      "fetched"
  ),
  "page" as (
    select
      *
    from
      "numbered"
    where
      (
        $10::int IS NULL
        OR n <= $11::int
      )
  )
select
  (
    select
      '[' || coalesce(
        string_agg(
          json_strip_nulls(
            row_to_json(
              (
                SELECT
                  f
                FROM
                  (
                    SELECT
                      page.identity_id AS "identityId",
                      page.display_name AS "displayName",
                      nullif(page.small_pictures, '{}') AS "smallPictures",
                      nullif(page.medium_pictures, '{}') AS "mediumPictures",
                      nullif(page.large_pictures, '{}') AS "largePictures"
                  ) AS f
              )
            )
          )::text,
          ','
          ORDER BY
            n
        ),
        ''
      ) || ']' as "items"
    from
      "page"
  ) as "items",
  (
    select
      count(*)::int as "fetched"
    from
      "numbered"
  ) as "fetched",
  "last"."sort_name" as "lastName",
  "last"."identity_id" as "lastId",
  coalesce(
    (
      SELECT
        cardinality(a)
      FROM
        ids
    ) > $12::int,
    false
  ) as "tooLong"
from
  (
    select
      1 as "x"
  ) as "one"
  left join (
    select
      "sort_name",
      "identity_id"
    from
      "page"
    order by
      "n" desc
    limit
      $13
  ) as "last" on true;

-- FRIEND_LIST
-- $1 tenantId, $2 tenantId, $3 identityId, $4 afterId, $5 afterName
-- $6 afterId
DECLARE friend_list NO SCROLL CURSOR FOR (
  with
    "page" as (
      select
        coalesce(i.display_name, '') as "sort_name",
        "i"."identity_id",
        "i"."display_name",
        "i"."small_pictures",
        "i"."medium_pictures",
        "i"."large_pictures",
        row_number() OVER (
          ORDER BY
            coalesce(i.display_name, ''),
            i.identity_id
        ) as "n"
      from
        "identity" as "i"
      where
        "i"."tenant_id" = $1
        and "i"."identity_id" = ANY (
          ARRAY(
            (
              select
                "f"."friend_id"
              from
                "friendship" as "f"
              where
                "f"."tenant_id" = $2
                and "f"."identity_id" = $3
            )
          )
        )
        and (
          $4::text IS NULL
          OR (coalesce(i.display_name, ''), i.identity_id) > ($5::text, $6::text)
        )
      order by
        "sort_name",
        "i"."identity_id"
    ),
    "entry" as materialized (
      select
        "page"."n",
        json_strip_nulls(
          row_to_json(
            (
              SELECT
                f
              FROM
                (
                  SELECT
                    page.identity_id AS "identityId",
                    page.display_name AS "displayName",
                    nullif(page.small_pictures, '{}') AS "smallPictures",
                    nullif(page.medium_pictures, '{}') AS "mediumPictures",
                    nullif(page.large_pictures, '{}') AS "largePictures"
                ) AS f
            )
          )
        )::text as "json"
      from
        "page"
    ),
    "placed" as (
      select
        "entry"."n",
        "entry"."json",
        (
          (
            sum(octet_length(json) + 1) OVER (
              ORDER BY
                n
            ) - octet_length(json) - 1
          ) / 16384 + 1
        )::int as "part"
      from
        "entry"
    )
  select
    0 as "part",
    rtrim(
      translate(
        encode(
          sha256(
            convert_to(
              '[' || coalesce(
                string_agg(
                  json,
                  ','
                  ORDER BY
                    n
                ),
                ''
              ) || ']',
              'UTF8'
            )
          ),
          'base64'
        ),
        '+/',
        '-_'
      ),
      '='
    ) as "text"
  from
    "entry"
  union all
  select
    "placed"."part",
    string_agg(
      json,
      ','
      ORDER BY
        n
    ) as "text"
  from
    "placed"
  group by
    "placed"."part"
  order by
    "part"
);

-- NEXT_PIECES
FETCH 4
FROM
  friend_list;

-- ADD_FRIENDSHIP
-- $1 tenantId, $2 friendId, $3 tenantId, $4 identityId, $5 tenantId
-- $6 identityId, $7 tenantId, $8 = 'updated', $9 = ["friends"]
-- $10 traceParent, $11 = 7486, $12 tenantId
with
  "friend" as (
    select
      "identity_id"
    from
      "identity"
    where
      "tenant_id" = $1
      and "identity_id" = $2
  ),
  "added" as (
    insert into
      "friendship" ("tenant_id", "identity_id", "friend_id")
    select
      $3 as "tenant_id",
      $4 as "identity_id",
      "friend"."identity_id" as "friend_id"
    from
      "friend"
    union all
    select
      $5 as "tenant_id",
      "friend"."identity_id" as "identity_id",
      $6 as "friend_id"
    from
      "friend"
    on conflict do nothing
    returning
      "identity_id" as "identityId"
  ),
  "event" as (
    INSERT INTO
      identity_event (
        tenant_id,
        identity_id,
        type,
        fields,
        trace_parent
      )
    SELECT
      $7,
      s."identityId",
      $8,
      $9::text[],
      $10::text
    FROM
      "added" AS s
      CROSS JOIN LATERAL (
        SELECT
          pg_advisory_xact_lock($11::int, hashtext ($12))
        WHERE
          s."identityId" IS NOT NULL
      ) AS ordered
  )
select
  (
    select
      count(*)::int as "added"
    from
      "added"
  ) as "added",
  exists (
    select
      1 as "one"
    from
      "friend"
  ) as "friendExists";

-- REMOVE_FRIENDSHIP
-- $1 tenantId, $2 identityId, $3 friendId, $4 friendId, $5 identityId
-- $6 tenantId, $7 = 'updated', $8 = ["friends"], $9 traceParent, $10 = 7486
-- $11 tenantId
with
  "removed" as (
    delete from "friendship"
    where
      "tenant_id" = $1
      and (
        (
          "identity_id" = $2
          and "friend_id" = $3
        )
        or (
          "identity_id" = $4
          and "friend_id" = $5
        )
      )
    returning
      "identity_id" as "identityId"
  ),
  "event" as (
    INSERT INTO
      identity_event (
        tenant_id,
        identity_id,
        type,
        fields,
        trace_parent
      )
    SELECT
      $6,
      s."identityId",
      $7,
      $8::text[],
      $9::text
    FROM
      "removed" AS s
      CROSS JOIN LATERAL (
        SELECT
          pg_advisory_xact_lock($10::int, hashtext ($11))
        WHERE
          s."identityId" IS NOT NULL
      ) AS ordered
  )
select
  count(*)::int as "removed"
from
  "removed";
