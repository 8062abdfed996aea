import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { AppConfig, ConfigError } from '../../config/app-config';
import {
  addKeyToFile,
  KeyRingError,
  newKeyEntry,
  ownKeyFile,
  parseKeys,
  readKeyFile,
  type SecretKey,
} from '../../config/secret-keys';
import { NoSecretKey } from '../errors';

/** What a secret is bound to: opening it for another tenant or provider fails. */
export type SecretContext = readonly string[];

/** A sealed secret that no key of the service opens; it says which key sealed it. */
export class SecretUnreadable extends Error {
  constructor(readonly keyId: string) {
    super(
      `sealed under key "${keyId}", which the service does not hold or which does not open it`,
    );
  }
}

let processKeys: SecretKey[] | undefined;

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

const b64 = (buffer: Buffer) => buffer.toString('base64url');

/**
 * Seals and opens the secrets tenants store (client secrets of account
 * linking) under the operator's keys: AES-256-GCM, a fresh nonce each
 * time, the tenant and provider as associated data, the key id in front
 * of every sealed value, so keys can be rotated (docs/security.md, client
 * secrets).
 */
@Injectable()
export class SecretBox {
  private keys: SecretKey[];
  /** When the key file was last changed, as it was read. */
  private readAt?: number;

  constructor(private readonly config: AppConfig) {
    this.keys = this.load();
  }

  /** The key new secrets are sealed under; undefined when the service holds none. */
  get currentKeyId(): string | undefined {
    return this.current()[0]?.id;
  }

  seal(secret: string, context: SecretContext): string {
    const key = this.current()[0];
    if (!key) throw new NoSecretKey();
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key.key, nonce);
    cipher.setAAD(associated(context));
    const sealed = Buffer.concat([
      cipher.update(secret, 'utf8'),
      cipher.final(),
      cipher.getAuthTag(),
    ]);
    return `${key.id}.${b64(nonce)}.${b64(sealed)}`;
  }

  /** The secret; SecretUnreadable when no key of the service opens it for this context. */
  open(sealed: string, context: SecretContext): string {
    const [keyId, nonce, data] = sealed.split('.');
    const key = this.key(keyId);
    const bytes = Buffer.from(data ?? '', 'base64url');
    if (!key || bytes.length < TAG_BYTES) throw new SecretUnreadable(keyId);
    try {
      const decipher = createDecipheriv(
        'aes-256-gcm',
        key.key,
        Buffer.from(nonce ?? '', 'base64url'),
      );
      decipher.setAAD(associated(context));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SecretUnreadable(keyId);
    }
  }

  /** The id of the key a sealed value names. */
  keyIdOf(sealed: string): string {
    return sealed.split('.')[0];
  }

  /**
   * A key file the service keeps (the embedded database's own) gets a new
   * first key; anywhere else the operator puts one first. The keys after.
   */
  addKey(): { added: boolean; keys: string[] } {
    const source = this.config.secretKeys;
    if (source.kind === 'file' && source.own) {
      this.keys = addKeyToFile(source.path);
      return { added: true, keys: this.keys.map((k) => k.id) };
    }
    return { added: false, keys: this.keys.map((k) => k.id) };
  }

  private key(id: string): SecretKey | undefined {
    return this.current().find((k) => k.id === id);
  }

  /**
   * The keys, a key file read again when it changed since (the command
   * line's rotation puts a new key first while the service runs: from then
   * on it seals under it too). A file that cannot be read keeps the keys
   * read before.
   */
  private current(): SecretKey[] {
    const source = this.config.secretKeys;
    if (source.kind !== 'file') return this.keys;
    let changedAt: number;
    try {
      changedAt = statSync(source.path).mtimeMs;
    } catch {
      return this.keys;
    }
    if (changedAt !== this.readAt) {
      try {
        this.keys = this.load();
      } catch {
        return this.keys;
      }
    }
    return this.keys;
  }

  private load(): SecretKey[] {
    const source = this.config.secretKeys;
    switch (source.kind) {
      case 'given':
        return source.keys;
      case 'file':
        try {
          this.readAt = statSync(source.path, {
            throwIfNoEntry: false,
          })?.mtimeMs;
          return source.own
            ? ownKeyFile(source.path)
            : readKeyFile(source.path);
        } catch (error) {
          const e = error as NodeJS.ErrnoException;
          throw new ConfigError(
            `Invalid configuration:\n  ${source.own ? 'the key file of the embedded database' : 'SECRET_KEYS_FILE'}: ${e instanceof KeyRingError ? e.message : `${source.path} cannot be read (${e.code ?? e.message})`}`,
          );
        }
      case 'memory':
        // The data lives as long as the process: so does its key.
        return (processKeys ??= parseKeys(
          newKeyEntry(),
          'a key of this process',
        ));
      case 'none':
        return [];
    }
  }
}

const associated = (context: SecretContext) =>
  Buffer.from(JSON.stringify(['identity-service secret', ...context]));
