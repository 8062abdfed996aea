import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  Forbidden,
  IdentityNotFound,
  PreconditionFailed,
} from '../common/errors';
import { emptyIdentity } from '../identity/identity-fields';
import { IdentityTags } from '../identity/identity-tags';
import { applyUpdate } from '../identity/identity-update';
import type { IdentityRecord } from '../identity/identity.record';
import {
  IdentityChanges,
  IdentityRepository,
} from '../identity/identity.repository';
import { IdentityService } from '../identity/identity.service';
import { project } from './scim-attributes';
import { listResponse, ScimList } from './scim-list';
import { applyPatch } from './scim-patch';
import { IDENTITY_EXTENSION, USER_PATHS } from './scim-schemas';
import { EXTENSION_FIELDS } from './scim-fields';
import { scimIfMatchAllows, strongTags } from './scim-if-match';
import { fromScimUser, type UserInput } from './scim-user.input';
import { ScimUser, ScimUserRow, toScimUser } from './scim-user.mapper';
import {
  pageOf,
  type ScimAttributesQuery,
  type ScimListQuery,
} from './scim-users.dto';
import { ScimUsersRepository } from './scim-users.repository';
import {
  attributesToKeep,
  keptAttributes,
  VALUE_ATTRIBUTES,
  valueEntries,
  type ValueAttributes,
} from './scim-value-attributes';

export interface ScimUserAnswer {
  body: ScimUser;
  etag: string;
  location: string;
}

/**
 * What a PATCH may not change: the id and the extension's read-only
 * attributes (meta is the service's own: scim-patch sets its lastModified).
 */
const READ_ONLY_EXTENSION = [
  ...EXTENSION_FIELDS.filter(([, spec]) => !spec.editable).map(([f]) => f),
  'accounts',
];
const readOnly = (user: ScimUser) => {
  const ext = (user[IDENTITY_EXTENSION] ?? {}) as Record<string, unknown>;
  return [user.id, READ_ONLY_EXTENSION.map((name) => ext[name])];
};

const adminHolder = (what: string) =>
  new Forbidden(
    `The User holds one of the tenant's admin roles: it is not ${what} by provisioning; the tenant's configuration (adminRoles) decides who holds them.`,
  );

/**
 * What a write keeps of the types and primaries its User gave (undefined:
 * nothing to write). Written with a change of the identity's values when it
 * differs from what is kept; on its own only when the User's entries read
 * differently because of it.
 */
function keptChange(
  current: IdentityRecord,
  changes: IdentityChanges,
  stored: ValueAttributes,
  input: UserInput,
): Record<string, unknown> | undefined {
  const next = { ...current, ...changes } as IdentityRecord;
  const kept = attributesToKeep(input.described, next);
  if (isDeepStrictEqual(kept, stored)) return undefined;
  const shownBefore = valueEntries(current, stored);
  const shownAfter = valueEntries(next, kept);
  const readsDifferently = VALUE_ATTRIBUTES.some(
    (a) => !isDeepStrictEqual(shownBefore[a], shownAfter[a]),
  );
  return Object.keys(changes).length || readsDifferently ? kept : undefined;
}

/**
 * A PATCH that makes a value primary makes the values that were primary
 * before it no longer so (RFC 7644 §3.5.2).
 */
function demoteFormerPrimaries(before: ScimUser, after: unknown): unknown {
  if (typeof after !== 'object' || after === null) return after;
  const patched = after as Record<string, unknown>;
  for (const attribute of VALUE_ATTRIBUTES) {
    const entries = patched[attribute];
    if (!Array.isArray(entries)) continue;
    const marked = entries.filter(
      (e) => typeof e === 'object' && e !== null && e.primary === true,
    ) as Record<string, unknown>[];
    if (marked.length < 2) continue;
    const formerly = new Set(
      ((before[attribute] ?? []) as Record<string, unknown>[])
        .filter((e) => e.primary === true)
        .map((e) => e.value),
    );
    const fresh = marked.filter((e) => !formerly.has(e.value));
    if (fresh.length)
      patched[attribute] = entries.map((e: Record<string, unknown>) =>
        marked.includes(e) && !fresh.includes(e) ? { ...e, primary: false } : e,
      );
  }
  return patched;
}

/** A PUT's or a PATCH's arguments, as the controller passes them. */
type UserWrite = [
  tenantId: string,
  base: string,
  identityId: string,
  body: unknown,
  ifMatch?: string,
];

/**
 * How a write makes the User to store of its body and the identity as it
 * is when locked (`known` read before), and whether the User must keep a
 * userName.
 */
interface WriteMode {
  target(body: unknown, current: ScimUserRow, known: ScimUserRow): unknown;
  userNameRequired(current: IdentityRecord): boolean;
}

/** PUT: the identity becomes what the body describes. */
const PUT: WriteMode = {
  target: (body) => body,
  userNameRequired: () => true,
};

/** PATCH: the operations applied to the identity as it is when locked. */
const PATCH: WriteMode = {
  target: (body, current, known) => {
    const user = toScimUser({ ...known, ...current }, '', '');
    return demoteFormerPrimaries(
      user,
      applyPatch(user, body, USER_PATHS, readOnly),
    );
  },
  // An identity made without a userName (by an import, or on sign-in)
  // can be patched without one; one that has it cannot lose it.
  userNameRequired: (current) => current.userName !== null,
};

/** Users as identities (docs/scim.md): reads, and writes with the identity API's effects. */
@Injectable()
export class ScimUsersService {
  constructor(
    private readonly users: ScimUsersRepository,
    private readonly identities: IdentityRepository,
    private readonly identityService: IdentityService,
    private readonly tags: IdentityTags,
  ) {}

  async list(
    tenantId: string,
    base: string,
    query: ScimListQuery,
  ): Promise<ScimList<ScimUser>> {
    const { startIndex, count } = pageOf(query);
    const page = await this.users.findUsers(
      tenantId,
      query.filter,
      startIndex - 1,
      count,
    );
    const tag = await this.tags.tagger();
    const resources = page.rows.map((row) =>
      project(
        this.represent(row, tag(tenantId, row.identityId, row.version), base)
          .body,
        query.attributes,
        query.excludedAttributes,
      ),
    );
    return listResponse(resources, page.total, startIndex);
  }

  async get(
    tenantId: string,
    base: string,
    identityId: string,
    query: ScimAttributesQuery = {},
  ): Promise<ScimUserAnswer> {
    const row = await this.users.findUser(tenantId, identityId);
    if (!row) throw new IdentityNotFound(identityId);
    const tag = await this.tags.tagger();
    const answer = this.represent(
      row,
      tag(tenantId, identityId, row.version),
      base,
    );
    return {
      ...answer,
      body: project(answer.body, query.attributes, query.excludedAttributes),
    };
  }

  /** POST: a new identity, its id assigned here, with its `created` event. */
  async create(
    tenantId: string,
    base: string,
    body: unknown,
  ): Promise<ScimUserAnswer> {
    const input = fromScimUser(body);
    const identityId = randomUUID();
    const empty = emptyIdentity(identityId);
    const { changes } = applyUpdate(
      { ...empty, version: 0n } as IdentityRecord,
      input.update,
    );
    const values = { ...empty, ...(changes as Partial<typeof empty>) };
    const kept = attributesToKeep(input.described, values);
    await this.identities.createIdentity(
      tenantId,
      { ...values, disabled: input.disabled, externalId: input.externalId },
      Object.keys(kept).length ? kept : undefined,
    );
    return this.get(tenantId, base, identityId);
  }

  /** PUT: the identity becomes what the body describes. */
  replace(...write: UserWrite): Promise<ScimUserAnswer> {
    return this.write(PUT, ...write);
  }

  /** PATCH: the operations applied to the identity as it is when locked. */
  patch(...write: UserWrite): Promise<ScimUserAnswer> {
    return this.write(PATCH, ...write);
  }

  /** DELETE: as the identity API deletes (accounts, roles, tokens with it). */
  async delete(tenantId: string, identityId: string, ifMatch?: string) {
    if (await this.users.holdsAdminRole(tenantId, identityId))
      throw adminHolder('deleted');
    return this.identityService.deleteIdentity(
      tenantId,
      identityId,
      strongTags(ifMatch),
    );
  }

  /**
   * Writes what `mode` makes of the body and the identity, locked, in one
   * transaction with its event; 412 when If-Match names another version.
   */
  private async write(
    mode: WriteMode,
    ...[tenantId, base, identityId, body, ifMatch]: UserWrite
  ): Promise<ScimUserAnswer> {
    const [known, tag, admin] = await Promise.all([
      this.users.findUser(tenantId, identityId),
      this.tags.tagger(),
      this.users.holdsAdminRole(tenantId, identityId),
    ]);
    if (!known) throw new IdentityNotFound(identityId);
    const result = await this.identities.updateIdentity(
      tenantId,
      identityId,
      null,
      (current, extras) => {
        if (
          !scimIfMatchAllows(
            ifMatch,
            tag(tenantId, identityId, current.version),
          )
        )
          return 'stale';
        const stored = keptAttributes(extras?.scimAttributes);
        const input = fromScimUser(
          mode.target(
            body,
            { ...known, ...current, scimAttributes: stored },
            known,
          ),
          mode.userNameRequired(current),
          current,
        );
        const changes: IdentityChanges = applyUpdate(
          current,
          input.update,
        ).changes;
        const kept = keptChange(current, changes, stored, input);
        if (kept) changes.scimAttributes = kept;
        if (input.disabled !== current.disabled) {
          if (input.disabled && admin) throw adminHolder('deactivated');
          changes.disabled = input.disabled;
        }
        if (input.externalId !== current.externalId)
          changes.externalId = input.externalId;
        return Object.keys(changes).length ? changes : 'unchanged';
      },
    );
    if (result.outcome === 'missing') throw new IdentityNotFound(identityId);
    if (result.outcome === 'stale') throw new PreconditionFailed();
    const written = await this.users.findUser(tenantId, identityId);
    // Deleted since this write committed: the answer is what the write left.
    const row = written ?? {
      ...known,
      ...result.row,
      updatedAt: new Date(),
    };
    return this.represent(row, tag(tenantId, identityId, row.version), base);
  }

  private represent(
    row: ScimUserRow,
    versionTag: string,
    base: string,
  ): ScimUserAnswer {
    const etag = IdentityTags.etag(versionTag);
    const location = `${base}/Users/${encodeURIComponent(row.identityId)}`;
    return { body: toScimUser(row, etag, location), etag, location };
  }
}
