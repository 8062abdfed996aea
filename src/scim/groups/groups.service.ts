import { Injectable } from '@nestjs/common';
import {
  Conflict,
  Forbidden,
  GroupNotFound,
  InvalidRequest,
  PreconditionFailed,
} from '../../common/errors';
import { IdentityTags } from '../../identity/identity-tags';
import { readGroupBody } from './group-body';
import { scimIfMatchAllows } from '../scim-if-match';
import { setMembers } from './group-members';
import { applyGroupPatch } from './group-patch';
import { FULL, Projection, ScimGroup, toScimGroup } from './group.mapper';
import {
  GroupRow,
  GroupsRepository,
  GroupWrite,
  WriteOutcome,
} from './groups.repository';

/** What a request for Groups names: its tenant, the SCIM base URL, the attributes it wants. */
export interface GroupScope {
  tenantId: string;
  base: string;
  projection?: Projection;
}

export interface GroupPage {
  total: number;
  startIndex: number;
  groups: ScimGroup[];
}

/**
 * A role as a SCIM Group. Its tag is the identities' tag of the same
 * tenant, version and a name no identity can have (a slash is not allowed
 * in an identity id), so that one key serves both and no tag repeats.
 */
const groupKey = (id: string) => `/Groups/${id}`;

@Injectable()
export class GroupsService {
  constructor(
    private readonly groups: GroupsRepository,
    private readonly tags: IdentityTags,
  ) {}

  async listGroups(
    scope: GroupScope,
    query: { filter?: string; startIndex: number; count: number },
  ): Promise<GroupPage> {
    const { total, groups } = await this.groups.findGroups(
      scope.tenantId,
      query.filter,
      query.startIndex - 1,
      query.count,
    );
    return {
      total,
      startIndex: query.startIndex,
      groups: await this.present(scope, groups),
    };
  }

  async getGroup(scope: GroupScope, id: string): Promise<ScimGroup> {
    const group = await this.groups.findGroup(scope.tenantId, id);
    if (!group) throw new GroupNotFound(id);
    const [scim] = await this.present(scope, [group]);
    return scim;
  }

  async createGroup(scope: GroupScope, body: unknown): Promise<ScimGroup> {
    const { displayName, externalId, members } = readGroupBody(body);
    const outcome = await this.groups.createGroup(scope.tenantId, {
      name: displayName,
      externalId,
      members: setMembers(members),
    });
    return this.answer(scope, outcome, displayName);
  }

  async replaceGroup(
    scope: GroupScope,
    id: string,
    body: unknown,
    ifMatch?: string,
  ): Promise<ScimGroup> {
    const { displayName, externalId, members } = readGroupBody(body);
    return this.update(scope, id, ifMatch, () => ({
      name: displayName,
      externalId,
      members: setMembers(members),
    }));
  }

  async patchGroup(
    scope: GroupScope,
    id: string,
    body: unknown,
    ifMatch?: string,
  ): Promise<ScimGroup> {
    return this.update(scope, id, ifMatch, (current) =>
      applyGroupPatch(current, body),
    );
  }

  async deleteGroup(
    tenantId: string,
    id: string,
    ifMatch?: string,
  ): Promise<void> {
    let expected: bigint | undefined;
    if (ifMatch !== undefined) {
      const group = await this.groups.findGroup(tenantId, id);
      if (!group) throw new GroupNotFound(id);
      if (
        !scimIfMatchAllows(
          ifMatch,
          (await this.tags.tagger())(tenantId, groupKey(id), group.version),
        )
      )
        throw new PreconditionFailed('the current version of the Group');
      expected = group.version;
    }
    const outcome = await this.groups.deleteGroup(tenantId, id, expected);
    if (outcome === 'missing') throw new GroupNotFound(id);
    if (outcome === 'stale')
      throw new PreconditionFailed('the current version of the Group');
    if (outcome === 'admin-role') throw adminRole();
  }

  private async update(
    scope: GroupScope,
    id: string,
    ifMatch: string | undefined,
    plan: (current: GroupRow) => GroupWrite,
  ): Promise<ScimGroup> {
    const tagger = await this.tags.tagger();
    let name = '';
    const outcome = await this.groups.updateGroup(
      scope.tenantId,
      id,
      (current) => {
        if (
          ifMatch !== undefined &&
          !scimIfMatchAllows(
            ifMatch,
            tagger(scope.tenantId, groupKey(id), current.version),
          )
        )
          return 'stale';
        const write = plan(current);
        name = write.name;
        return write;
      },
    );
    if (outcome.outcome === 'missing') throw new GroupNotFound(id);
    return this.answer(scope, outcome, name);
  }

  private async answer(
    scope: GroupScope,
    outcome: Exclude<WriteOutcome, { outcome: 'missing' }>,
    name: string,
  ): Promise<ScimGroup> {
    switch (outcome.outcome) {
      case 'done':
        return (await this.present(scope, [outcome.group]))[0];
      case 'stale':
        throw new PreconditionFailed('the current version of the Group');
      case 'name-taken':
        throw new Conflict(`A Group named "${name}" exists already.`);
      case 'admin-role':
        throw adminRole();
      case 'unknown-members':
        throw new InvalidRequest(
          `No User ${outcome.ids.map((id) => `"${id}"`).join(', ')} in this tenant; nothing was changed.`,
        );
    }
  }

  /** Groups with their members (unless left out) and tags. */
  private async present(
    scope: GroupScope,
    groups: GroupRow[],
  ): Promise<ScimGroup[]> {
    const projection = scope.projection ?? FULL;
    const [tagger, members] = await Promise.all([
      this.tags.tagger(),
      projection.members
        ? this.groups.findMembers(
            scope.tenantId,
            groups.map((g) => g.name),
          )
        : Promise.resolve([]),
    ]);
    const byRole = new Map<string, typeof members>();
    for (const member of members) {
      const list = byRole.get(member.roleName);
      if (list) list.push(member);
      else byRole.set(member.roleName, [member]);
    }
    return groups.map((group) =>
      toScimGroup(
        group,
        byRole.get(group.name) ?? [],
        scope.base,
        tagger(scope.tenantId, groupKey(group.id), group.version),
        projection,
      ),
    );
  }
}

const adminRole = () =>
  new Forbidden(
    "The Group is one of the tenant's admin roles: who holds it is set by the tenant's configuration (adminRoles), not by provisioning.",
  );
