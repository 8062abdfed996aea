-- The statements of src/admin-identities/admin-identities.repository.ts, as PostgreSQL receives them.
-- Written by `npm run sql`; src/database/query-files.spec.ts holds them.

-- IDENTITIES.all: identities(false)
-- $1 tenantId, $2 afterId, $3 limit
select
  "i"."identity_id" as "identityId",
  "i"."display_name" as "displayName",
  "i"."user_name" as "userName",
  "i"."email_address" as "emailAddress",
  "i"."small_pictures" as "smallPictures",
  "i"."medium_pictures" as "mediumPictures",
  "i"."large_pictures" as "largePictures"
from
  "identity" as "i"
where
  "i"."tenant_id" = $1
  and "i"."identity_id" > $2
order by
  "i"."identity_id"
limit
  $3;

-- IDENTITIES.matching: identities(true)
-- $1 tenantId, $2 afterId, $3 pattern, $4 pattern, $5 pattern, $6 pattern
-- $7 limit
select
  "i"."identity_id" as "identityId",
  "i"."display_name" as "displayName",
  "i"."user_name" as "userName",
  "i"."email_address" as "emailAddress",
  "i"."small_pictures" as "smallPictures",
  "i"."medium_pictures" as "mediumPictures",
  "i"."large_pictures" as "largePictures"
from
  "identity" as "i"
where
  "i"."tenant_id" = $1
  and "i"."identity_id" > $2
  and (
    ascii_lower (i.identity_id) LIKE ascii_lower ($3) ESCAPE '\'
    OR ascii_lower (i.user_name) LIKE ascii_lower ($4) ESCAPE '\'
    OR ascii_lower (i.display_name) LIKE ascii_lower ($5) ESCAPE '\'
    OR EXISTS (
      SELECT
        1
      FROM
        unnest(i.email_addresses) AS e (address)
      WHERE
        ascii_lower (e.address) LIKE ascii_lower ($6) ESCAPE '\'
    )
  )
order by
  "i"."identity_id"
limit
  $7;
