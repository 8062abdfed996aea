-- A secret of this database: identities' ETags are a keyed digest of their
-- tenant, id and version, so that they reveal nothing of the version
-- sequence all tenants share. Made once, here, from PostgreSQL's strong
-- random source (gen_random_uuid), and never shown.

-- CreateTable
CREATE TABLE "service_key" (
    "name" TEXT NOT NULL,
    "secret" BYTEA NOT NULL,

    CONSTRAINT "service_key_pkey" PRIMARY KEY ("name")
);

INSERT INTO "service_key" ("name", "secret")
VALUES ('etag', sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')));
