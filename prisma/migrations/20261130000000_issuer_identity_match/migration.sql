-- Sign-ins find the identity a directory provisioned (docs/api.md): a token
-- issuer says which of an identity's keys its tokens' identity claim
-- carries: the identityId (as before), the externalId a directory gave it,
-- its userName, or the issuedUserId of its account at the issuer's account
-- provider.

-- AlterTable
ALTER TABLE "token_issuer" ADD COLUMN "identity_match" TEXT NOT NULL DEFAULT 'identityId',
ADD CONSTRAINT "token_issuer_identity_match_check" CHECK ("identity_match" IN ('identityId', 'externalId', 'userName', 'account'));
