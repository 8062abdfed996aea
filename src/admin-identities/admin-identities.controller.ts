import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AccountProviderResponse } from '../accounts/accounts.dto';
import { AccountsService } from '../accounts/accounts.service';
import { adminIdentityRead, adminList } from '../admin/admin-routes';
import {
  answerCollection,
  answerPage,
  CollectionAnswer,
} from '../common/http/collection';
import { conditional } from '../common/http/conditional';
import { type Exchange, Http } from '../common/http/exchange';
import { ADMIN_PREFIX } from '../common/http/route-table';
import { PageQuery } from '../common/pagination';
import { FriendResponse } from '../friends/friends.dto';
import { FRIENDS_ORDER, FriendsService } from '../friends/friends.service';
import {
  type AccessTarget,
  Caller,
  Target,
} from '../identity/caller.decorator';
import {
  IdentityResponse,
  type PartialIdentityResponse,
} from '../identity/identity.dto';
import { IdentityService } from '../identity/identity.service';
import type { AppCaller } from '../identity/principal';
import { RoleResponse } from '../roles/roles.dto';
import { ROLES_ORDER, RolesService } from '../roles/roles.service';
import {
  IdentityEventResponse,
  IdentitySearchQuery,
  IdentitySummaryResponse,
} from './admin-identities.dto';
import {
  AdminIdentitiesService,
  EVENTS_ORDER,
  IDENTITIES_ORDER,
} from './admin-identities.service';

const AS_READ =
  'The same body and ETag as the identity API gives an app token with identities:read.';

/**
 * The tenant's identities in the administration API: a search, and each
 * identity as the identity API shows it, with its accounts, friends, roles
 * and change log. Reads only.
 */
@ApiTags('admin')
@Controller(`${ADMIN_PREFIX}/identities`)
export class AdminIdentitiesController {
  constructor(
    private readonly search: AdminIdentitiesService,
    private readonly identities: IdentityService,
    private readonly accounts: AccountsService,
    private readonly friends: FriendsService,
    private readonly roles: RolesService,
  ) {}

  @adminList(
    '',
    {
      summary: 'The tenant’s identities, a page at a time',
      description:
        'By identityId; with q, only those whose identityId, userName, displayName or an e-mail address holds it (A–Z matching a–z, every character literal). A merged-away id is no identity of its own. The next page’s link repeats q.',
    },
    IdentitySummaryResponse,
  )
  getIdentities(
    @Caller() caller: AppCaller,
    @Query() query: IdentitySearchQuery,
    @Http() http: Exchange,
  ): Promise<string | undefined> {
    return answerPage(
      http,
      query,
      IDENTITIES_ORDER,
      (page) => this.search.findIdentities(caller.tenantId, query.q, page),
      { q: query.q },
    );
  }

  @adminIdentityRead(
    ':id',
    { summary: 'An identity of the tenant', description: AS_READ },
    { type: IdentityResponse },
  )
  async getAdminIdentity(
    @Caller() caller: AppCaller,
    @Target() target: AccessTarget,
    @Http() http: Exchange,
  ): Promise<PartialIdentityResponse | undefined> {
    const { body, etag } = await this.identities.identity(caller, target);
    return conditional(http, etag, body);
  }

  @adminIdentityRead(
    ':id/accounts',
    {
      summary: 'An identity’s accounts, one entry per provider of the tenant',
      description: `In the tenant’s provider order. ${AS_READ}`,
    },
    { type: [AccountProviderResponse] },
  )
  async getAdminIdentityAccounts(
    @Caller() caller: AppCaller,
    @Target() target: AccessTarget,
    @Http() http: Exchange,
  ): Promise<string | undefined> {
    const accounts = await this.accounts.listAccounts(
      caller,
      target.identityId,
    );
    return answerCollection(http, { items: accounts });
  }

  @adminIdentityRead(
    ':id/friends',
    {
      summary: 'An identity’s friends',
      description: `By display name, then identityId; the whole list, or a page of it with limit. ${AS_READ}`,
    },
    { type: [FriendResponse], paged: true },
  )
  getAdminIdentityFriends(
    @Caller() caller: AppCaller,
    @Target() target: AccessTarget,
    @Query() query: PageQuery,
    @Http() http: Exchange,
  ): Promise<CollectionAnswer> {
    return answerPage(http, query, FRIENDS_ORDER, (page) =>
      this.friends.listFriends(caller.tenantId, target.identityId, page),
    );
  }

  @adminIdentityRead(
    ':id/roles',
    {
      summary: 'An identity’s roles',
      description: `By name; the whole list, or a page of it with limit. ${AS_READ}`,
    },
    { type: [RoleResponse], paged: true },
  )
  getAdminIdentityRoles(
    @Caller() caller: AppCaller,
    @Target() target: AccessTarget,
    @Query() query: PageQuery,
    @Http() http: Exchange,
  ): Promise<string | undefined> {
    return answerPage(http, query, ROLES_ORDER, (page) =>
      this.roles.listRoles(caller.tenantId, target.identityId, page),
    );
  }

  @adminIdentityRead(
    ':id/events',
    {
      summary: 'An identity’s change log, newest first, a page at a time',
      description:
        'Its events as the command line’s events prints them: what changed (field names, never values), when, and for merges the other identity.',
    },
    { type: [IdentityEventResponse], paged: true },
  )
  getAdminIdentityEvents(
    @Caller() caller: AppCaller,
    @Target() target: AccessTarget,
    @Query() query: PageQuery,
    @Http() http: Exchange,
  ): Promise<string | undefined> {
    return answerPage(http, query, EVENTS_ORDER, (page) =>
      this.search.identityEvents(caller.tenantId, target.identityId, page),
    );
  }
}
