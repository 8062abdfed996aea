-- Identifiers, role names and display names compare byte by byte (COLLATE "C"),
-- so ordering and keyset pagination are the same on every database.

-- CreateEnum
CREATE TYPE "token_type" AS ENUM ('access', 'app');

-- CreateSequence
-- Identity versions come from one sequence, so a version (and the ETag made
-- from it) is never reused, not even after a tenant is replaced.
CREATE SEQUENCE "identity_version_seq";

-- CreateTable
CREATE TABLE "tenant" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "admin_roles" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tenant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "account_provider" (
    "tenant_id" TEXT NOT NULL,
    "account_provider_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "display_name" TEXT,
    "provider_image_url" TEXT,
    "sign_in_url" TEXT NOT NULL,
    "allows_multiple_accounts" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "account_provider_pkey" PRIMARY KEY ("tenant_id","account_provider_id")
);

-- CreateTable
CREATE TABLE "identity" (
    "tenant_id" TEXT NOT NULL,
    "identity_id" TEXT COLLATE "C" NOT NULL,
    "version" BIGINT NOT NULL DEFAULT nextval('identity_version_seq'::regclass),
    "display_name" TEXT COLLATE "C",
    "user_name" TEXT,
    "email_address" TEXT,
    "email_addresses" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "email_address_verified" BOOLEAN NOT NULL DEFAULT false,
    "given_name" TEXT,
    "given_names" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "surname" TEXT,
    "surnames" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "locality" TEXT,
    "localities" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "mobile_phone" TEXT,
    "mobile_phone_verified" BOOLEAN NOT NULL DEFAULT false,
    "private_personal_identifier" TEXT,
    "last_login" TIMESTAMPTZ(3),
    "small_pictures" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "medium_pictures" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "large_pictures" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "user_name_password_account_user_name" TEXT,
    "old_identity_ids" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "properties" JSONB NOT NULL DEFAULT '{}',
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "is_archived" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "identity_pkey" PRIMARY KEY ("tenant_id","identity_id")
);

-- CreateTable
CREATE TABLE "account" (
    "tenant_id" TEXT NOT NULL,
    "account_id" TEXT COLLATE "C" NOT NULL,
    "identity_id" TEXT COLLATE "C" NOT NULL,
    "account_provider_id" TEXT NOT NULL,
    "issued_user_id" TEXT NOT NULL,
    "account_private_personal_identifier" TEXT,
    "display_name" TEXT,
    "email_address" TEXT,
    "account_profile_url" TEXT,
    "picture_url" TEXT,

    CONSTRAINT "account_pkey" PRIMARY KEY ("tenant_id","account_id")
);

-- CreateTable
CREATE TABLE "friendship" (
    "tenant_id" TEXT NOT NULL,
    "identity_id" TEXT COLLATE "C" NOT NULL,
    "friend_id" TEXT COLLATE "C" NOT NULL,

    CONSTRAINT "friendship_pkey" PRIMARY KEY ("tenant_id","identity_id","friend_id")
);

-- CreateTable
CREATE TABLE "role" (
    "tenant_id" TEXT NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,

    CONSTRAINT "role_pkey" PRIMARY KEY ("tenant_id","name")
);

-- CreateTable
CREATE TABLE "role_assignment" (
    "tenant_id" TEXT NOT NULL,
    "identity_id" TEXT COLLATE "C" NOT NULL,
    "role_name" TEXT COLLATE "C" NOT NULL,

    CONSTRAINT "role_assignment_pkey" PRIMARY KEY ("tenant_id","identity_id","role_name")
);

-- CreateTable
CREATE TABLE "token" (
    "id" UUID NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "type" "token_type" NOT NULL,
    "identity_id" TEXT COLLATE "C",
    "account_id" TEXT COLLATE "C",
    "app_id" TEXT,
    "scopes" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "expires_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "token_pkey" PRIMARY KEY ("id"),
    -- An access token acts for an identity, an app token for an application.
    CONSTRAINT "token_owner_check" CHECK (
        ("type" = 'access' AND "identity_id" IS NOT NULL AND "app_id" IS NULL) OR
        ("type" = 'app' AND "identity_id" IS NULL AND "account_id" IS NULL AND "app_id" IS NOT NULL)
    )
);

-- CreateIndex
CREATE UNIQUE INDEX "account_provider_tenant_id_position_key" ON "account_provider"("tenant_id", "position");

-- CreateIndex
CREATE INDEX "identity_old_identity_ids_idx" ON "identity" USING GIN ("old_identity_ids");

-- CreateIndex
CREATE INDEX "account_tenant_id_identity_id_idx" ON "account"("tenant_id", "identity_id");

-- CreateIndex
CREATE UNIQUE INDEX "account_tenant_id_account_provider_id_issued_user_id_key" ON "account"("tenant_id", "account_provider_id", "issued_user_id");

-- CreateIndex
CREATE INDEX "friendship_tenant_id_friend_id_idx" ON "friendship"("tenant_id", "friend_id");

-- CreateIndex
CREATE INDEX "role_assignment_tenant_id_role_name_idx" ON "role_assignment"("tenant_id", "role_name");

-- CreateIndex
CREATE UNIQUE INDEX "token_token_hash_key" ON "token"("token_hash");

-- CreateIndex
CREATE INDEX "token_tenant_id_identity_id_idx" ON "token"("tenant_id", "identity_id");

-- AddForeignKey
ALTER TABLE "account_provider" ADD CONSTRAINT "account_provider_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "identity" ADD CONSTRAINT "identity_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account" ADD CONSTRAINT "account_tenant_id_identity_id_fkey" FOREIGN KEY ("tenant_id", "identity_id") REFERENCES "identity"("tenant_id", "identity_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account" ADD CONSTRAINT "account_tenant_id_account_provider_id_fkey" FOREIGN KEY ("tenant_id", "account_provider_id") REFERENCES "account_provider"("tenant_id", "account_provider_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "friendship" ADD CONSTRAINT "friendship_tenant_id_identity_id_fkey" FOREIGN KEY ("tenant_id", "identity_id") REFERENCES "identity"("tenant_id", "identity_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "friendship" ADD CONSTRAINT "friendship_tenant_id_friend_id_fkey" FOREIGN KEY ("tenant_id", "friend_id") REFERENCES "identity"("tenant_id", "identity_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "role" ADD CONSTRAINT "role_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "role_assignment" ADD CONSTRAINT "role_assignment_tenant_id_identity_id_fkey" FOREIGN KEY ("tenant_id", "identity_id") REFERENCES "identity"("tenant_id", "identity_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "role_assignment" ADD CONSTRAINT "role_assignment_tenant_id_role_name_fkey" FOREIGN KEY ("tenant_id", "role_name") REFERENCES "role"("tenant_id", "name") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "token" ADD CONSTRAINT "token_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "token" ADD CONSTRAINT "token_tenant_id_identity_id_fkey" FOREIGN KEY ("tenant_id", "identity_id") REFERENCES "identity"("tenant_id", "identity_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "token" ADD CONSTRAINT "token_tenant_id_account_id_fkey" FOREIGN KEY ("tenant_id", "account_id") REFERENCES "account"("tenant_id", "account_id") ON DELETE CASCADE ON UPDATE CASCADE;
