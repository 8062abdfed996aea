import { Injectable } from '@nestjs/common';
import {
  IdentityNotFound,
  InvalidRequest,
  PreconditionFailed,
} from '../common/errors';
import { ifMatchAllows } from '../common/http/if-match';
import { contentTag } from '../common/http/conditional';
import {
  IdentityField,
  IdentityResponse,
  IdentityUpdate,
  isIdentityField,
  PartialIdentityResponse,
} from './identity.dto';
import {
  pickFields,
  PUBLIC_FIELDS,
  toIdentityResponse,
} from './identity.mapper';
import type { AccessCaller, Principal } from './principal';
import type { AccessTarget } from './caller.decorator';
import type { IdentityRecord } from './identity.record';
import { IdentityRepository, MergeConflict } from './identity.repository';
import { applyUpdate } from './identity-update';
import { IdentityTags } from './identity-tags';

export interface IdentityRepresentation {
  body: PartialIdentityResponse;
  etag: string;
}

@Injectable()
export class IdentityService {
  constructor(
    private readonly identities: IdentityRepository,
    private readonly tags: IdentityTags,
  ) {}

  /**
   * The caller's own identity, reduced to `fields` when given. It answers
   * from the identity authentication read with the caller, so that the GET
   * costs no query of its own.
   */
  currentIdentity(
    caller: AccessCaller,
    fields?: string,
  ): Promise<IdentityRepresentation> {
    return this.represent(caller.tenantId, caller.identity, 'full', fields);
  }

  /**
   * The `{id}` identity as the access guard read it, as much of it as the
   * caller may see, reduced to `fields` when given.
   */
  identity(
    caller: Principal,
    target: AccessTarget,
    fields?: string,
  ): Promise<IdentityRepresentation> {
    return this.represent(
      caller.tenantId,
      target.identity,
      target.view,
      fields,
    );
  }

  /** Applies a PUT to the caller's own identity (see updateIdentity). */
  updateCurrentIdentity(
    caller: AccessCaller,
    update: IdentityUpdate,
    ifMatch?: string,
  ): Promise<IdentityRepresentation> {
    const { tenantId, identityId, identity } = caller;
    return this.updateIdentity(tenantId, identityId, identity, update, ifMatch);
  }

  private async represent(
    tenantId: string,
    identity: IdentityRecord,
    view: 'full' | 'public',
    fields?: string,
  ): Promise<IdentityRepresentation> {
    const selected = fields === undefined ? undefined : parseFields(fields);
    const tag = (await this.tags.tagger())(
      tenantId,
      identity.identityId,
      identity.version,
    );
    return represent(identity, tag, view, selected);
  }

  /**
   * Applies a PUT to the identity, planned on `known` (the caller's identity
   * as read with its token) when given. With If-Match, the write happens
   * only if the identity still has that tag when it is written: of writers
   * holding the same tag exactly one wins, the others get 412.
   */
  private async updateIdentity(
    tenantId: string,
    identityId: string,
    known: IdentityRecord | null,
    update: IdentityUpdate,
    ifMatch?: string,
  ): Promise<IdentityRepresentation> {
    const tag = await this.tags.tagger();
    const result = await this.identities.updateIdentity(
      tenantId,
      identityId,
      known,
      (current) => {
        if (!ifMatchAllows(ifMatch, tag(tenantId, identityId, current.version)))
          return 'stale';
        const { changes, fields } = applyUpdate(current, update);
        return fields.length ? changes : 'unchanged';
      },
    );
    if (result.outcome === 'missing') throw new IdentityNotFound(identityId);
    if (result.outcome === 'stale') throw new PreconditionFailed();
    return represent(
      result.row,
      tag(tenantId, identityId, result.row.version),
      'full',
      undefined,
    );
  }

  /** Deletes the identity with everything it owns; honours If-Match. */
  async deleteIdentity(
    tenantId: string,
    identityId: string,
    ifMatch?: string,
  ): Promise<void> {
    const current = await this.identities.findIdentity(tenantId, identityId);
    if (!current) throw new IdentityNotFound(identityId);
    const tag = await this.tags.tagger();
    if (!ifMatchAllows(ifMatch, tag(tenantId, identityId, current.version)))
      throw new PreconditionFailed();
    const expected = ifMatch === undefined ? undefined : current.version;
    if (!(await this.identities.deleteIdentity(tenantId, identityId, expected)))
      throw ifMatch === undefined
        ? new IdentityNotFound(identityId)
        : new PreconditionFailed();
  }

  /** Merges identity `fromId` into `intoId` (decisions.md, Merged identities). */
  async mergeIdentities(
    tenantId: string,
    intoId: string,
    fromId: string,
  ): Promise<IdentityResponse> {
    if (intoId === fromId)
      throw new InvalidRequest('An identity cannot be merged into itself.');
    try {
      return toIdentityResponse(
        await this.identities.mergeIdentities(tenantId, intoId, fromId),
      );
    } catch (error) {
      if (error instanceof MergeConflict)
        throw new InvalidRequest(error.message);
      throw error;
    }
  }
}

/**
 * The representation `view` and `fields` allow. What the caller may see
 * whole is tagged with its version (a `?fields=` selection adds a digest of
 * its shape, and If-Match still names that version). A friend's public
 * view is tagged from what it shows, so its tag changes only when that
 * does: it tells nothing about the fields the view leaves out (a new
 * mobile phone, a sign-in).
 */
function represent(
  row: IdentityRecord,
  versionTag: string,
  view: 'full' | 'public',
  selected: Set<IdentityField> | undefined,
): IdentityRepresentation {
  let body: PartialIdentityResponse = toIdentityResponse(row);
  if (view === 'public')
    body = pickFields(
      body as ReturnType<typeof toIdentityResponse>,
      PUBLIC_FIELDS,
    );
  if (selected)
    body = pickFields(body as ReturnType<typeof toIdentityResponse>, selected);
  if (view === 'public')
    return { body, etag: contentTag(JSON.stringify(body)) };
  const shape = selected ? [...selected].sort().join(',') : '';
  return { body, etag: IdentityTags.etag(versionTag, shape) };
}

function parseFields(fields: string): Set<IdentityField> {
  const names = fields.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !isIdentityField(name));
  if (unknown.length)
    throw new InvalidRequest(
      `Unknown field${unknown.length > 1 ? 's' : ''} in fields: ${unknown.map((n) => `"${n}"`).join(', ')}.`,
      unknown.map((name) => ({
        field: 'fields',
        message: `unknown field "${name}"`,
      })),
    );
  return new Set(names as IdentityField[]);
}
