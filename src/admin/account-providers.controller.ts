import { Body, Controller, Headers, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Caller } from '../identity/caller.decorator';
import type { AppCaller } from '../identity/principal';
import { answerPage } from '../common/http/collection';
import { conditionalJson, createdJson } from '../common/http/conditional';
import { type Exchange, Http } from '../common/http/exchange';
import { ADMIN_PREFIX } from '../common/http/route-table';
import { PageQuery } from '../common/pagination';
import { PROVIDER_ID } from '../common/validation/field-rules';
import { JsonBodyPipe } from '../common/validation/json-body.pipe';
import { AccountProviderEntry } from '../tenants/tenant-file.dto';
import {
  PROVIDER_KEYS,
  ProviderReplacement,
  RemoveProviderQuery,
} from './admin.dto';
import { actorOf } from './admin-rules';
import { adminRoutes } from './admin-routes';
import {
  AccountProvidersService,
  PROVIDERS_ORDER,
} from './account-providers.service';

const Provider = adminRoutes({
  path: '',
  id: {
    name: 'accountProviderId',
    description: 'the provider’s id',
    schema: { type: 'string', pattern: PROVIDER_ID.source, maxLength: 64 },
  },
  called: 'the provider',
  type: AccountProviderEntry,
});

/** The tenant's account providers (docs/api.md, administration). */
@ApiTags('admin')
@Controller(`${ADMIN_PREFIX}/account-providers`)
export class AccountProvidersController {
  constructor(private readonly providers: AccountProvidersService) {}

  @Provider.list({
    summary: 'The tenant’s account providers, a page at a time',
    description: 'In their order, the order accounts are grouped in.',
  })
  async getProviders(
    @Caller() caller: AppCaller,
    @Query() query: PageQuery,
    @Http() http: Exchange,
  ): Promise<string | undefined> {
    return answerPage(http, query, PROVIDERS_ORDER, (page) =>
      this.providers.listProviders(caller.tenantId, page),
    );
  }

  @Provider.create(
    {
      summary: 'Add an account provider',
      description:
        'After the others. 409 when the id is taken. Recorded in the audit log.',
    },
    AccountProviderEntry,
    { problems: [409] },
  )
  async createProvider(
    @Caller() caller: AppCaller,
    @Body(new JsonBodyPipe(AccountProviderEntry, PROVIDER_KEYS))
    body: Readonly<AccountProviderEntry>,
    @Http() http: Exchange,
  ): Promise<string> {
    const provider = await this.providers.createProvider(
      caller.tenantId,
      body,
      actorOf(caller.appId),
    );
    return createdJson(http, provider.accountProviderId, provider);
  }

  @Provider.read({ summary: 'An account provider' })
  async getProvider(
    @Caller() caller: AppCaller,
    @Param('accountProviderId') id: string,
    @Http() http: Exchange,
  ): Promise<string | undefined> {
    const provider = await this.providers.provider(caller.tenantId, id);
    return conditionalJson(http, JSON.stringify(provider));
  }

  @Provider.change(
    'PUT',
    {
      summary: 'Replace an account provider’s settings',
      description:
        'Every setting: the ones left out take their defaults. 409 when allowsMultipleAccounts becomes false while an identity has several accounts there. Accounts, their tokens and the issuers that name it stay. Recorded in the audit log with the settings before and after.',
    },
    ProviderReplacement,
    [409],
  )
  async replaceProvider(
    @Caller() caller: AppCaller,
    @Param('accountProviderId') id: string,
    @Body(new JsonBodyPipe(ProviderReplacement, PROVIDER_KEYS))
    body: Readonly<ProviderReplacement>,
    @Headers('if-match') ifMatch: string | undefined,
    @Http() http: Exchange,
  ): Promise<string | undefined> {
    const provider = await this.providers.replaceProvider(
      caller.tenantId,
      id,
      body,
      ifMatch,
      actorOf(caller.appId),
    );
    return conditionalJson(http, JSON.stringify(provider));
  }

  @Provider.remove(
    {
      summary: 'Remove an account provider',
      description:
        "409 while a token issuer names it, or while it has accounts unless ?deleteAccounts=true, which removes them (and the tokens issued for them) in the same transaction, each identity's removal in the change log. Recorded in the audit log.",
    },
    'removed',
    [409],
  )
  async removeProvider(
    @Caller() caller: AppCaller,
    @Param('accountProviderId') id: string,
    @Query() query: RemoveProviderQuery,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<void> {
    await this.providers.removeProvider(
      caller.tenantId,
      id,
      query.deleteAccounts === 'true',
      ifMatch,
      actorOf(caller.appId),
    );
  }
}
