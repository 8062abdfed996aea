import { Injectable } from '@nestjs/common';
import {
  createHash,
  createHmac,
  createSecretKey,
  KeyObject,
} from 'node:crypto';
import { boundedCache, ENTRY_BYTES, stringBytes } from '../common/cache-budget';
import { IdentityRepository } from './identity.repository';

/** How many versions' tags a process keeps, and in how many bytes at most (docs/operations.md, Memory). */
const TAGS_KEPT = 10_000;
export const TAGS_BYTES = 6 * 1024 * 1024;
/** A tag: 22 characters sliced from a digest of 43, which it keeps. */
const TAG_BYTES = 32 + stringBytes('x'.repeat(43));
/** Its key joins five strings: one node of concatenation each. */
const KEY_NODES_BYTES = 5 * 32;
export const tagEntryBytes = (_tag: string, message: string) =>
  ENTRY_BYTES + stringBytes(message) + KEY_NODES_BYTES + TAG_BYTES;

export type VersionTagger = (
  tenantId: string,
  identityId: string,
  version: bigint,
) => string;

/**
 * The ETags of identities: strong, opaque, never reused. A version number
 * comes from one sequence all tenants share, so the tag is a digest of the
 * tenant, the identity and the version keyed with a secret of the database
 * (the same on every instance): it changes with every write and says
 * nothing else. A `?fields=` selection adds a digest of its shape to the
 * same version tag; a friend's public view is tagged from its content
 * instead (identity.service.ts).
 */
@Injectable()
export class IdentityTags {
  // A KeyObject: an HMAC keyed with one is four times cheaper than with a Buffer.
  private key?: Promise<KeyObject>;
  private versionTag?: Promise<VersionTagger>;

  constructor(private readonly identities: IdentityRepository) {}

  /**
   * A function giving the tag of an identity's version, without quotes.
   * One per process: a version's tag is computed once and kept (the latest
   * ten thousand, within TAGS_BYTES), as reads of one version far outnumber its writes.
   */
  tagger(): Promise<VersionTagger> {
    this.versionTag ??= this.loadKey().then(
      (key) => {
        const tags = boundedCache<string, string>({
          max: TAGS_KEPT,
          maxBytes: TAGS_BYTES,
          sizeOf: tagEntryBytes,
        });
        return (tenantId, identityId, version) => {
          const message = `${tenantId}\u0000${identityId}\u0000${version}`;
          let tag = tags.get(message);
          if (tag === undefined) {
            tag = createHmac('sha256', key)
              .update(message)
              .digest('base64url')
              .slice(0, 22);
            tags.set(message, tag);
          }
          return tag;
        };
      },
      (error: unknown) => {
        this.versionTag = undefined;
        throw error;
      },
    );
    return this.versionTag;
  }

  /** The ETag of a representation of that version; `shape` names a reduced one. */
  static etag(versionTag: string, shape = ''): string {
    if (!shape) return `"${versionTag}"`;
    const digest = createHash('sha256').update(shape).digest('base64url');
    return `"${versionTag}-${digest.slice(0, 10)}"`;
  }

  private loadKey(): Promise<KeyObject> {
    this.key ??= this.identities
      .findEtagKey()
      .then(createSecretKey, (error: unknown) => {
        this.key = undefined;
        throw error;
      });
    return this.key;
  }
}
