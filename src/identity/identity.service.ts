import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import {
  IdentityNotFound,
  InvalidRequest,
  PreconditionFailed,
} from '../common/errors';
import { ifMatchAllows } from '../common/http/if-match';
import {
  IdentityField,
  IdentityResponse,
  IdentityUpdate,
  PartialIdentityResponse,
} from './identity.dto';
import {
  IDENTITY_FIELDS,
  pickFields,
  PUBLIC_FIELDS,
  toIdentityResponse,
} from './identity.mapper';
import type { IdentityRecord } from './identity.record';
import { IdentityRepository, MergeConflict } from './identity.repository';
import { applyUpdate } from './identity-update';

export interface IdentityRepresentation {
  body: PartialIdentityResponse;
  etag: string;
}

@Injectable()
export class IdentityService {
  constructor(private readonly identities: IdentityRepository) {}

  /**
   * The identity as `view` allows, reduced to `fields` when given. Reads
   * answer from the row the guards read with the token or the access
   * facts, so that a GET costs no query of its own.
   */
  represent(
    identity: IdentityRecord,
    view: 'full' | 'public',
    fields?: string,
  ): IdentityRepresentation {
    const selected = fields === undefined ? undefined : parseFields(fields);
    return represent(identity, view, selected);
  }

  /**
   * Applies a PUT to the identity, planned on `known` (the caller's identity
   * as read with its token) when given. With If-Match, the write happens
   * only if the identity still has that tag when it is written: of writers
   * holding the same tag exactly one wins, the others get 412.
   */
  async updateIdentity(
    tenantId: string,
    identityId: string,
    known: IdentityRecord | null,
    update: IdentityUpdate,
    ifMatch?: string,
  ): Promise<IdentityRepresentation> {
    const result = await this.identities.updateIdentity(
      tenantId,
      identityId,
      known,
      (current) => {
        if (!ifMatchAllows(ifMatch, current.version.toString())) return 'stale';
        const { changes, fields } = applyUpdate(current, update);
        return fields.length ? changes : 'unchanged';
      },
    );
    if (result.outcome === 'missing') throw new IdentityNotFound(identityId);
    if (result.outcome === 'stale') throw new PreconditionFailed();
    return fullRepresentation(result.row);
  }

  /** Deletes the identity with everything it owns; honours If-Match. */
  async deleteIdentity(
    tenantId: string,
    identityId: string,
    ifMatch?: string,
  ): Promise<void> {
    const current = await this.identities.findIdentity(tenantId, identityId);
    if (!current) throw new IdentityNotFound(identityId);
    if (!ifMatchAllows(ifMatch, current.version.toString()))
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

/** The representation `view` and `fields` allow; a reduced one gets its own ETag. */
function represent(
  row: IdentityRecord,
  view: 'full' | 'public',
  selected: Set<IdentityField> | undefined,
): IdentityRepresentation {
  let body: PartialIdentityResponse = toIdentityResponse(row);
  let shape = '';
  if (view === 'public') {
    body = pickFields(
      body as ReturnType<typeof toIdentityResponse>,
      PUBLIC_FIELDS,
    );
    shape = 'public';
  }
  if (selected) {
    body = pickFields(body as ReturnType<typeof toIdentityResponse>, selected);
    shape += `|${[...selected].sort().join(',')}`;
  }
  const version = row.version.toString();
  const etag = shape
    ? `"${version}-${createHash('sha256').update(shape).digest('base64url').slice(0, 10)}"`
    : `"${version}"`;
  return { body, etag };
}

function fullRepresentation(row: IdentityRecord): IdentityRepresentation {
  return { body: toIdentityResponse(row), etag: `"${row.version.toString()}"` };
}

function parseFields(fields: string): Set<IdentityField> {
  const names = fields.split(',').map((name) => name.trim());
  const unknown = names.filter(
    (name) => !IDENTITY_FIELDS.has(name as IdentityField),
  );
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
