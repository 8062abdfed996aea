import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';

// The operator's keys for the secrets a tenant stores (docs/security.md,
// client secrets): `<id>:<32 bytes in base64>` entries, separated by commas
// or new lines; the first seals, every one opens what was sealed under it.

export interface SecretKey {
  id: string;
  key: Buffer;
}

/** A key id: short, and never holding the separators of a sealed value. */
export const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const KEY_BYTES = 32;

export class KeyRingError extends Error {}

/** The keys of a SECRET_KEYS value or key file; what is wrong, without echoing a key. */
export function parseKeys(text: string, source: string): SecretKey[] {
  const entries = text
    .split(/[,\n]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry && !entry.startsWith('#'));
  if (entries.length === 0)
    throw new KeyRingError(
      `${source}: holds no key (<id>:<32 bytes in base64>)`,
    );
  const keys = entries.map((entry, index) => {
    const colon = entry.indexOf(':');
    const id = colon < 0 ? '' : entry.slice(0, colon);
    const key = Buffer.from(colon < 0 ? '' : entry.slice(colon + 1), 'base64');
    if (!KEY_ID.test(id) || key.length !== KEY_BYTES)
      throw new KeyRingError(
        `${source}: entry ${index + 1} is not <id>:<32 bytes in base64> (the id: 1 to 32 letters, digits, _ or -)`,
      );
    return { id, key };
  });
  const ids = keys.map((k) => k.id);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice)
    throw new KeyRingError(`${source}: key id "${twice}" is given twice`);
  return keys;
}

/** A new key entry, as SECRET_KEYS and the key file hold it. */
export function newKeyEntry(): string {
  return `k${randomBytes(4).toString('hex')}:${randomBytes(KEY_BYTES).toString('base64')}`;
}

/** A key file's keys; one group or others may read is refused, as ssh refuses a key. */
export function readKeyFile(path: string): SecretKey[] {
  const mode = statSync(path).mode & 0o777;
  if (mode & 0o077)
    throw new KeyRingError(
      `${path}: readable by others (mode ${mode.toString(8)}); allow its owner only (chmod 600)`,
    );
  return parseKeys(readFileSync(path, 'utf8'), path);
}

/** The embedded database's own key file: read, or made with one new key, owner only. */
export function ownKeyFile(path: string): SecretKey[] {
  try {
    return readKeyFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(path), { recursive: true });
  // Written whole beside it, then linked into place: a process that starts
  // at the same time reads a whole file or none, and one of them wins.
  const draft = draftOf(path, keyFileText([newKeyEntry()]));
  try {
    linkSync(draft, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(draft, { force: true });
  }
  return readKeyFile(path);
}

/** `text` in a new file beside `path`, owner only, on disk; its path. */
function draftOf(path: string, text: string): string {
  const draft = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const fd = openSync(draft, 'wx', 0o600);
  try {
    writeFileSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return draft;
}

/** Puts a new key first in a key file the service keeps; the older keys stay to open what they sealed. */
export function addKeyToFile(path: string): SecretKey[] {
  readKeyFile(path);
  const kept = readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  // Replaced whole (a crash leaves the old file or the new one, never a
  // part of either: losing the keys loses every secret they sealed).
  renameSync(draftOf(path, keyFileText([newKeyEntry(), ...kept])), path);
  return readKeyFile(path);
}

const keyFileText = (entries: string[]) =>
  `# Keys sealing the client secrets of the identity service's tenants; the first seals.\n# Back it up apart from the database: a copy of the database without it opens no secret.\n${entries.join('\n')}\n`;
