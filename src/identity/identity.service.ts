import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { IdentityNotFound, InvalidRequest } from '../common/errors';
import { IdentityField, PartialIdentityResponse } from './identity.dto';
import {
  IDENTITY_FIELDS,
  pickFields,
  PUBLIC_FIELDS,
  toIdentityResponse,
} from './identity.mapper';
import { IdentityRepository } from './identity.repository';

export interface IdentityRepresentation {
  body: PartialIdentityResponse;
  etag: string;
}

@Injectable()
export class IdentityService {
  constructor(private readonly identities: IdentityRepository) {}

  /**
   * The identity as `view` allows, reduced to `fields` when given. The ETag
   * is the identity's version; a reduced representation gets its own tag.
   */
  async getIdentity(
    tenantId: string,
    identityId: string,
    view: 'full' | 'public',
    fields?: string,
  ): Promise<IdentityRepresentation> {
    const selected = fields === undefined ? undefined : parseFields(fields);
    const row = await this.identities.findIdentity(tenantId, identityId);
    if (!row) throw new IdentityNotFound(identityId);
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
      body = pickFields(
        body as ReturnType<typeof toIdentityResponse>,
        selected,
      );
      shape += `|${[...selected].sort().join(',')}`;
    }
    const version = row.version.toString();
    const etag = shape
      ? `"${version}-${createHash('sha256').update(shape).digest('base64url').slice(0, 10)}"`
      : `"${version}"`;
    return { body, etag };
  }
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
