import { Body, Controller, Headers, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Caller } from '../identity/caller.decorator';
import type { AppCaller } from '../identity/principal';
import { answerPage } from '../common/http/collection';
import { conditionalJson } from '../common/http/conditional';
import { type Exchange, Http } from '../common/http/exchange';
import { ADMIN_PREFIX } from '../common/http/route-table';
import { JsonBodyPipe } from '../common/validation/json-body.pipe';
import {
  AdminEventListQuery,
  AdminEventResponse,
  CreatedTokenResponse,
  TenantSettingsPatch,
  TenantSettingsResponse,
  TokenListQuery,
  TokenRequestBody,
  TokenResponse,
} from './admin.dto';
import { AdminService, EVENTS_ORDER, TOKENS_ORDER } from './admin.service';
import { actorOf } from './admin-rules';
import { adminList, adminRoutes } from './admin-routes';

const Settings = adminRoutes({
  path: 'tenant',
  called: 'the settings',
  type: TenantSettingsResponse,
});

const Token = adminRoutes({
  path: 'tokens',
  id: {
    name: 'tokenId',
    description: 'a token’s id, as the list shows it',
    schema: { type: 'string', format: 'uuid', maxLength: 36 },
  },
  called: 'the token',
  type: TokenResponse,
});

/** The tenant's administration: its settings, its tokens, its audit log. */
@ApiTags('admin')
@Controller(ADMIN_PREFIX)
export class AdminController {
  constructor(private readonly admin: AdminService) {}

  @Settings.read({ summary: 'The tenant’s settings' })
  async getSettings(
    @Caller() caller: AppCaller,
    @Http() http: Exchange,
  ): Promise<string | undefined> {
    const settings = await this.admin.settings(caller.tenantId);
    return conditionalJson(http, JSON.stringify(settings));
  }

  // The body's type is a mapped one, so that the global validation pipe
  // leaves it to JsonBodyPipe (which refuses unknown keys, not drops them).
  @Settings.change(
    'PATCH',
    {
      summary: 'Change the tenant’s name or admin roles',
      description:
        'The keys the body names are replaced (adminRoles whole); the others stay. Recorded in the audit log with the settings before and after.',
    },
    TenantSettingsPatch,
  )
  async patchSettings(
    @Caller() caller: AppCaller,
    @Body(
      new JsonBodyPipe(TenantSettingsPatch, [
        'name',
        'adminRoles',
        'linkReturnUrls',
      ]),
    )
    patch: Readonly<TenantSettingsPatch>,
    @Headers('if-match') ifMatch: string | undefined,
    @Http() http: Exchange,
  ): Promise<string | undefined> {
    const settings = await this.admin.updateSettings(
      caller.tenantId,
      patch,
      ifMatch,
      actorOf(caller.appId),
    );
    return conditionalJson(http, JSON.stringify(settings));
  }

  @Token.list({
    summary: 'The tenant’s tokens, a page at a time',
    description:
      'By creation, then id; revoked and expired ones too. Never a secret. identityId or appId keeps one identity’s or app’s only (the next page’s link repeats them).',
  })
  async getTokens(
    @Caller() caller: AppCaller,
    @Query() query: TokenListQuery,
    @Http() http: Exchange,
  ): Promise<string | undefined> {
    const filter = { identityId: query.identityId, appId: query.appId };
    return answerPage(
      http,
      query,
      TOKENS_ORDER,
      (page) => this.admin.listTokens(caller.tenantId, filter, page),
      filter,
    );
  }

  @Token.create(
    {
      summary: 'Make a token',
      description:
        'An access token (identityId, optionally accountId) or an app token (appId) with scopes and an optional lifetime. The secret is in this answer only. Recorded in the audit log, without the secret.',
    },
    TokenRequestBody,
    { type: CreatedTokenResponse, headers: ['Location'] },
  )
  async createToken(
    @Caller() caller: AppCaller,
    @Body(
      new JsonBodyPipe(TokenRequestBody, [
        'identityId',
        'accountId',
        'appId',
        'scopes',
        'ttlSeconds',
      ]),
    )
    body: Readonly<TokenRequestBody>,
    @Http() { req, res }: Exchange,
  ): Promise<CreatedTokenResponse> {
    const token = await this.admin.createToken(
      caller.tenantId,
      body,
      actorOf(caller.appId),
    );
    res.setHeader('Location', `${req.path}/${token.tokenId}`);
    res.setHeader('Cache-Control', 'no-store');
    return token;
  }

  @Token.read({ summary: 'A token' })
  async getToken(
    @Caller() caller: AppCaller,
    @Param('tokenId') tokenId: string,
    @Http() http: Exchange,
  ): Promise<string | undefined> {
    const token = await this.admin.token(caller.tenantId, tokenId);
    return conditionalJson(http, JSON.stringify(token));
  }

  @Token.remove(
    {
      summary: 'Revoke a token',
      description:
        'It answers 401 from then on. 404 for a token that is not live. Recorded in the audit log.',
    },
    'revoked',
  )
  revokeToken(
    @Caller() caller: AppCaller,
    @Param('tokenId') tokenId: string,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<void> {
    return this.admin.revokeToken(
      caller.tenantId,
      tokenId,
      ifMatch,
      actorOf(caller.appId),
    );
  }

  @adminList(
    'events',
    {
      summary: 'The tenant’s audit log, a page at a time',
      description:
        'In order: settings changed, providers, issuers and webhooks added, changed or removed, tokens made or revoked; by whom (app:<appId>, or cli), with the settings before and after; never a secret. action or actor (or both) keeps one action’s or one actor’s entries only (the next page’s link repeats them).',
    },
    AdminEventResponse,
  )
  async getEvents(
    @Caller() caller: AppCaller,
    @Query() query: AdminEventListQuery,
    @Http() http: Exchange,
  ): Promise<string | undefined> {
    const filter = { action: query.action, actor: query.actor };
    return answerPage(
      http,
      query,
      EVENTS_ORDER,
      (page) => this.admin.listEvents(caller.tenantId, filter, page),
      filter,
    );
  }
}
