import { Injectable } from '@nestjs/common';
import {
  createHash,
  createHmac,
  createSecretKey,
  KeyObject,
} from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { IdentityRepository } from './identity.repository';

/** How many versions' tags a process keeps. */
const TAGS_KEPT = 10_000;

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
   * ten thousand), as reads of one version far outnumber its writes.
   */
  tagger(): Promise<VersionTagger> {
    this.versionTag ??= this.loadKey().then(
      (key) => {
        const tags = new LRUCache<string, string>({ max: TAGS_KEPT });
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
