-- The merge-redirect lookup (which identity keeps this id among its old
-- ones?) used a GIN index over every identity's old_identity_ids. Nearly
-- all of them are empty, so PostgreSQL estimated a match as likely, chose
-- to walk the tenant's rows instead (36-120 ms for a missing id in a tenant
-- of 100,000), and the index's pending list made its own scans slow. The
-- index now holds only identities that have old ids, and is kept current on
-- every write (no pending list); the lookups name its predicate.

-- DropIndex
DROP INDEX "identity_old_identity_ids_idx";

-- CreateIndex
CREATE INDEX "identity_old_identity_ids_idx" ON "identity" USING GIN ("old_identity_ids")
    WITH (fastupdate = off) WHERE "old_identity_ids" <> '{}';
