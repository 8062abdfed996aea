import { createHash, randomBytes } from 'node:crypto';

/** Tokens are stored and looked up by this hash only, never by the secret. */
export function hashTokenSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A new secret of 256 random bits, URL-safe. */
export function generateTokenSecret(): string {
  return randomBytes(32).toString('base64url');
}
