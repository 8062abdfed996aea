import { GROUP_SCHEMA } from './group-body';
import type { GroupRow, MemberRow } from './groups.repository';

export interface ScimMember {
  value: string;
  $ref: string;
  display?: string;
  type: 'User';
}

export interface ScimGroup {
  schemas: [typeof GROUP_SCHEMA];
  id: string;
  externalId?: string;
  displayName?: string;
  members?: ScimMember[];
  meta: {
    resourceType: 'Group';
    created: string;
    lastModified: string;
    version: string;
    location: string;
  };
}

/** Which of the attributes a client may leave out it asked for. */
export interface Projection {
  displayName: boolean;
  externalId: boolean;
  members: boolean;
}

export const FULL: Projection = {
  displayName: true,
  externalId: true,
  members: true,
};

/** The Group's `meta.version` and ETag: a weak tag of its version (RFC 7644 §3.14). */
export const groupEtag = (versionTag: string) => `W/"${versionTag}"`;

/**
 * A Group as SCIM returns it. `id`, `schemas` and `meta` are always there;
 * a member without a display name has no `display`.
 */
export function toScimGroup(
  group: GroupRow,
  members: MemberRow[],
  base: string,
  versionTag: string,
  projection: Projection = FULL,
): ScimGroup {
  return {
    schemas: [GROUP_SCHEMA],
    id: group.id,
    ...(projection.externalId &&
      group.externalId !== null && { externalId: group.externalId }),
    ...(projection.displayName && { displayName: group.name }),
    ...(projection.members && {
      members: members.map((member) => ({
        value: member.identityId,
        $ref: `${base}/Users/${encodeURIComponent(member.identityId)}`,
        ...(member.displayName !== null && { display: member.displayName }),
        type: 'User' as const,
      })),
    }),
    meta: {
      resourceType: 'Group',
      created: group.createdAt.toISOString(),
      lastModified: group.updatedAt.toISOString(),
      version: groupEtag(versionTag),
      location: `${base}/Groups/${encodeURIComponent(group.id)}`,
    },
  };
}

const SHOWN = {
  displayname: 'displayName',
  externalid: 'externalId',
  members: 'members',
} as const;

/** An attribute name of a query parameter, without the Group schema's URN or a sub-attribute. */
function attributeOf(name: string): keyof Projection | undefined {
  const lower = name.trim().toLowerCase();
  const local = lower.startsWith(`${GROUP_SCHEMA.toLowerCase()}:`)
    ? lower.slice(GROUP_SCHEMA.length + 1)
    : lower;
  return SHOWN[local.split('.')[0] as keyof typeof SHOWN];
}

/**
 * The attributes `attributes` or `excludedAttributes` (RFC 7644 §3.9) leave
 * in; names the Group does not have are ignored.
 */
export function projectionOf(
  attributes?: string,
  excluded?: string,
): Projection {
  const names = (list: string) =>
    new Set(
      list
        .split(',')
        .map(attributeOf)
        .filter((name) => name !== undefined),
    );
  if (attributes !== undefined) {
    const shown = names(attributes);
    return {
      displayName: shown.has('displayName'),
      externalId: shown.has('externalId'),
      members: shown.has('members'),
    };
  }
  if (excluded !== undefined) {
    const hidden = names(excluded);
    return {
      displayName: !hidden.has('displayName'),
      externalId: !hidden.has('externalId'),
      members: !hidden.has('members'),
    };
  }
  return FULL;
}
