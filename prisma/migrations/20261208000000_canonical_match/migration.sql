-- Keys that identify someone (a userName, a verified e-mail address, a
-- Group's displayName) compare in one canonical form: the text with the
-- ASCII letters A-Z made a-z, every other character kept as it is. lower()
-- depended on the database's locale and made non-ASCII letters equal to
-- ASCII ones (U+0130 to "i", the Kelvin sign to "k"), so a name written
-- with one of them acted as the ASCII name. Unicode normalization is left
-- out for the same reason: NFC turns the Kelvin sign into "K", NFKC turns
-- fullwidth letters, ligatures and the long s into ASCII. Two keys equal
-- here were equal under lower() too, so the unique index cannot fail on
-- data the old one accepted.

-- CreateFunction
CREATE FUNCTION ascii_lower(text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT translate($1, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') $$;

-- DropIndex
DROP INDEX "identity_tenant_id_lower_user_name_key";
DROP INDEX "identity_tenant_id_lower_email_address_idx";

-- CreateIndex
CREATE UNIQUE INDEX "identity_tenant_id_ascii_lower_user_name_key" ON "identity"("tenant_id", ascii_lower("user_name"));
CREATE INDEX "identity_tenant_id_ascii_lower_email_address_idx" ON "identity"("tenant_id", ascii_lower("email_address"));
