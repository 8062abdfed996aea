import { createHash, randomBytes } from 'node:crypto';

/** Tokens are stored and looked up by this hash only, never by the secret. */
export function hashTokenSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * A new secret: 256 random bits, URL-safe, behind a fixed prefix that makes
 * leaked secrets easy to recognise (and never lets one start with "-").
 */
export function generateTokenSecret(): string {
  return `idt_${randomBytes(32).toString('base64url')}`;
}
