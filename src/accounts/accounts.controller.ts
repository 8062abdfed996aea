import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
} from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { answerCollection } from '../common/http/collection';
import {
  ApiConditionalGet,
  ApiIdentityId,
  ApiIdentityRoute,
  NoContent,
  ApiMergedRedirect,
  WHO,
} from '../common/http/api-docs';
import { headers, RATE_LIMIT } from '../common/http/api-headers';
import { Access } from '../common/http/access.decorator';
import { Caller, Target } from '../identity/caller.decorator';
import type { AccessCaller, Principal } from '../identity/principal';
import {
  AccountProviderResponse,
  AccountResponse,
  LinkConfirmation,
} from './accounts.dto';
import { AccountLinkService } from './account-link.service';
import { JsonBodyPipe } from '../common/validation/json-body.pipe';
import { AccountEntryPipe } from './account-entry.pipe';
import type { NewAccount } from './accounts.repository';
import { PROVIDER_ID, STORABLE_TEXT } from '../common/validation/field-rules';
import { MAX_TEXT } from '../identity/identity-update.rules';
import { AccountsService } from './accounts.service';
import { type Exchange, Http } from '../common/http/exchange';
import { API_PREFIX } from '../common/http/route-table';

const TEXT = {
  type: 'string',
  pattern: STORABLE_TEXT.source,
  maxLength: MAX_TEXT,
} as const;
/** An account entry of the import format (docs/import-format.md). */
const NEW_ACCOUNT = {
  type: 'object',
  required: ['accountProviderId', 'issuedUserId'],
  additionalProperties: false,
  properties: {
    accountId: {
      ...TEXT,
      minLength: 1,
      description: 'unique in the tenant; a new UUID when left out',
    },
    accountProviderId: {
      type: 'string',
      pattern: PROVIDER_ID.source,
      maxLength: 64,
      description: 'one of the tenant’s providers',
    },
    issuedUserId: {
      ...TEXT,
      minLength: 1,
      description: 'the user’s id at the provider (its subject)',
    },
    accountPrivatePersonalIdentifier: TEXT,
    displayName: TEXT,
    emailAddress: { type: 'string', format: 'email', maxLength: MAX_TEXT },
    accountProfileUrl: { type: 'string', format: 'uri', maxLength: MAX_TEXT },
    pictureUrl: { type: 'string', format: 'uri', maxLength: MAX_TEXT },
  },
};
const ACCOUNT_ID = () =>
  ApiParam({
    name: 'accountId',
    description: 'the accountId',
    schema: TEXT,
  });
const WRITERS =
  'App tokens with accounts:write only (403 for any other token, an admin’s access token included). An updated event naming accounts goes to the change log. A merged-away id is 404: only reads follow a merge.';

@ApiTags('accounts')
@Controller(API_PREFIX)
export class AccountsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly links: AccountLinkService,
  ) {}

  @Get('accounts')
  @Access('current')
  @ApiOperation({
    summary: 'The accounts of the caller, one entry per provider of the tenant',
    description: `Entries follow the tenant's provider order; isCurrent marks the account the token was issued for. ${WHO.current}`,
  })
  @ApiIdentityRoute()
  @ApiConditionalGet()
  @ApiOkResponse({
    description: 'one entry per provider, in the tenant order',
    type: [AccountProviderResponse],
    headers: headers(...RATE_LIMIT, 'ETag'),
  })
  async getCurrentAccounts(
    @Caller() caller: AccessCaller,
    @Http() http: Exchange,
  ): Promise<string | undefined> {
    const accounts = await this.accounts.listAccounts(
      caller,
      caller.identityId,
    );
    return answerCollection(http, { items: accounts });
  }

  @Get(':id/accounts')
  @Access('identity-relations')
  @ApiOperation({
    summary:
      'The accounts of an identity, one entry per provider of the tenant',
    description: `Entries follow the tenant's provider order. ${WHO.relations}`,
  })
  @ApiIdentityRoute(404)
  @ApiIdentityId()
  @ApiConditionalGet()
  @ApiMergedRedirect()
  @ApiOkResponse({
    description: 'one entry per provider, in the tenant order',
    type: [AccountProviderResponse],
    headers: headers(...RATE_LIMIT, 'ETag'),
  })
  async getAccounts(
    @Caller() caller: Principal,
    @Target() target: { identityId: string },
    @Http() http: Exchange,
  ): Promise<string | undefined> {
    const accounts = await this.accounts.listAccounts(
      caller,
      target.identityId,
    );
    return answerCollection(http, { items: accounts });
  }
  @Post(':id/accounts')
  @Access('identity-accounts-write')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Record an account of an identity',
    description: `For an application that ran the provider's sign-in itself. 409 account-in-use when the provider's account is recorded already (for any identity), limit-reached when the provider allows one account per identity and it has one, account-id-taken for a taken accountId; 400 for a provider the tenant does not have. ${WRITERS}`,
  })
  @ApiIdentityRoute(404, 409, 413, 415)
  @ApiIdentityId()
  @ApiBody({ schema: NEW_ACCOUNT })
  @ApiCreatedResponse({
    description: 'the account, as the accounts list shows it',
    type: AccountResponse,
    headers: headers(...RATE_LIMIT),
  })
  addAccount(
    @Caller() caller: Principal,
    @Target() target: { identityId: string },
    @Body(AccountEntryPipe) account: NewAccount,
  ): Promise<AccountResponse> {
    return this.accounts.addAccount(
      caller.tenantId,
      target.identityId,
      account,
    );
  }

  @Post('accounts/link-confirmations')
  @Access('current')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Confirm a link: record the account a browser signed in with',
    description: `The application sends the linkCode its return URL received (result=confirm), with the token of the user signed in to it. The account is recorded only when that user is the identity that started the link, within LINK_ATTEMPT_SECONDS of the callback; a code is spent by its first confirmation, whoever sends it. 404 link-not-found for a code that is unknown, spent, expired, or another identity's or tenant's (alike); 409 account-in-use when the provider's account is recorded already (for any identity), limit-reached when the provider allows one account per identity and it has one. An updated event naming accounts goes to the change log. ${WHO.current}`,
  })
  @ApiIdentityRoute(404, 409, 413, 415)
  @ApiBody({ type: LinkConfirmation })
  @ApiCreatedResponse({
    description: 'the account, as the accounts list shows it',
    type: AccountResponse,
    headers: headers(...RATE_LIMIT),
  })
  confirmLink(
    @Caller() caller: AccessCaller,
    @Body(new JsonBodyPipe(LinkConfirmation, ['linkCode'])) // Readonly: the global pipe would otherwise drop unknown keys before this one refuses them.
    body: Readonly<LinkConfirmation>,
  ): Promise<AccountResponse> {
    return this.links.confirm(
      caller.tenantId,
      caller.identityId,
      body.linkCode,
    );
  }

  @Delete(':id/accounts/:accountId')
  @Access('identity-accounts-write')
  @ApiOperation({
    summary: 'Remove an account of an identity',
    description: `The tokens issued for the account go with it. 404 when the identity has no such account. ${WRITERS}`,
  })
  @ApiIdentityRoute(404)
  @ApiIdentityId()
  @ACCOUNT_ID()
  @NoContent('removed')
  removeAccount(
    @Caller() caller: Principal,
    @Target() target: { identityId: string },
    @Param('accountId') accountId: string,
  ): Promise<void> {
    return this.accounts.removeAccount(
      caller.tenantId,
      target.identityId,
      accountId,
    );
  }

  @Delete('accounts/:accountId')
  @Access('current')
  @ApiOperation({
    summary: 'Unlink one of the caller’s accounts',
    description: `The tokens issued for the account go with it. 409 current-account for the account the calling token was issued for (isCurrent), 404 when the caller has no such account. ${WHO.current}`,
  })
  @ApiIdentityRoute(404, 409)
  @ACCOUNT_ID()
  @NoContent('unlinked')
  unlinkAccount(
    @Caller() caller: AccessCaller,
    @Param('accountId') accountId: string,
  ): Promise<void> {
    return this.accounts.removeAccount(
      caller.tenantId,
      caller.identityId,
      accountId,
      caller.accountId,
    );
  }
}
