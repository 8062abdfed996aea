import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Access } from '../common/http/access.decorator';
import { Caller } from '../identity/caller.decorator';
import type { AppCaller } from '../identity/principal';
import {
  ApiConditionalGet,
  ApiAdminRoute,
  ApiIfMatch,
  ApiPaging,
} from '../common/http/api-docs';
import { headers, RATE_LIMIT } from '../common/http/api-headers';
import { answerCollection } from '../common/http/collection';
import { conditionalJson } from '../common/http/conditional';
import { ADMIN_PREFIX } from '../common/http/route-table';
import { pageOf, PageQuery } from '../common/pagination';
import { JsonBodyPipe } from '../common/validation/json-body.pipe';
import {
  AdminEventResponse,
  CreatedTokenResponse,
  TenantSettingsPatch,
  TenantSettingsResponse,
  TokenRequestBody,
  TokenResponse,
} from './admin.dto';
import { AdminService, EVENTS_ORDER, TOKENS_ORDER } from './admin.service';
import { actorOf, WHO } from './admin-rules';

const TOKEN_ID = () =>
  ApiParam({
    name: 'tokenId',
    description: 'a token’s id, as the list shows it',
    schema: { type: 'string', format: 'uuid', maxLength: 36 },
  });

/** The tenant's administration: its settings, its tokens, its audit log. */
@ApiTags('admin')
@Controller(ADMIN_PREFIX)
export class AdminController {
  constructor(private readonly admin: AdminService) {}

  @Get('tenant')
  @Access('admin')
  @ApiOperation({ summary: 'The tenant’s settings', description: WHO })
  @ApiAdminRoute()
  @ApiConditionalGet()
  @ApiOkResponse({
    type: TenantSettingsResponse,
    headers: headers(...RATE_LIMIT, 'ETag'),
  })
  async getSettings(
    @Caller() caller: AppCaller,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string | undefined> {
    const settings = await this.admin.settings(caller.tenantId);
    return conditionalJson(req, res, JSON.stringify(settings));
  }

  @Patch('tenant')
  @Access('admin')
  @ApiOperation({
    summary: 'Change the tenant’s name or admin roles',
    description: `The keys the body names are replaced (adminRoles whole); the others stay. Recorded in the audit log with the settings before and after. ${WHO}`,
  })
  @ApiAdminRoute(412, 413, 415)
  @ApiIfMatch('the settings')
  @ApiBody({ type: TenantSettingsPatch })
  @ApiOkResponse({
    type: TenantSettingsResponse,
    headers: headers(...RATE_LIMIT, 'ETag'),
  })
  // The body's type is a mapped one, so that the global validation pipe
  // leaves it to JsonBodyPipe (which refuses unknown keys, not drops them).
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
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string | undefined> {
    const settings = await this.admin.updateSettings(
      caller.tenantId,
      patch,
      ifMatch,
      actorOf(caller.appId),
    );
    return conditionalJson(req, res, JSON.stringify(settings));
  }

  @Get('tokens')
  @Access('admin')
  @ApiOperation({
    summary: 'The tenant’s tokens, a page at a time',
    description: `By creation, then id; revoked and expired ones too. Never a secret. ${WHO}`,
  })
  @ApiAdminRoute()
  @ApiConditionalGet()
  @ApiPaging()
  @ApiOkResponse({
    type: [TokenResponse],
    headers: headers(...RATE_LIMIT, 'ETag', 'Link'),
  })
  async getTokens(
    @Caller() caller: AppCaller,
    @Query() query: PageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string | undefined> {
    return answerCollection(
      req,
      res,
      await this.admin.listTokens(caller.tenantId, pageOf(query, TOKENS_ORDER)),
    );
  }

  @Post('tokens')
  @Access('admin')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Make a token',
    description: `An access token (identityId, optionally accountId) or an app token (appId) with scopes and an optional lifetime. The secret is in this answer only. Recorded in the audit log, without the secret. ${WHO}`,
  })
  @ApiAdminRoute(413, 415)
  @ApiBody({ type: TokenRequestBody })
  @ApiCreatedResponse({
    type: CreatedTokenResponse,
    headers: headers(...RATE_LIMIT, 'Location'),
  })
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
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
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

  @Get('tokens/:tokenId')
  @Access('admin')
  @ApiOperation({ summary: 'A token', description: WHO })
  @ApiAdminRoute(404)
  @TOKEN_ID()
  @ApiConditionalGet()
  @ApiOkResponse({
    type: TokenResponse,
    headers: headers(...RATE_LIMIT, 'ETag'),
  })
  async getToken(
    @Caller() caller: AppCaller,
    @Param('tokenId') tokenId: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string | undefined> {
    const token = await this.admin.token(caller.tenantId, tokenId);
    return conditionalJson(req, res, JSON.stringify(token));
  }

  @Delete('tokens/:tokenId')
  @Access('admin')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Revoke a token',
    description: `It answers 401 from then on. 404 for a token that is not live. Recorded in the audit log. ${WHO}`,
  })
  @ApiAdminRoute(404, 412)
  @TOKEN_ID()
  @ApiIfMatch('the token')
  @ApiNoContentResponse({
    description: 'revoked',
    headers: headers(...RATE_LIMIT),
  })
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

  @Get('events')
  @Access('admin')
  @ApiOperation({
    summary: 'The tenant’s audit log, a page at a time',
    description: `In order: settings changed, providers and issuers added, changed or removed, tokens made or revoked; by whom (app:<appId>, or cli), with the settings before and after; never a secret. ${WHO}`,
  })
  @ApiAdminRoute()
  @ApiConditionalGet()
  @ApiPaging()
  @ApiOkResponse({
    type: [AdminEventResponse],
    headers: headers(...RATE_LIMIT, 'ETag', 'Link'),
  })
  async getEvents(
    @Caller() caller: AppCaller,
    @Query() query: PageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string | undefined> {
    return answerCollection(
      req,
      res,
      await this.admin.listEvents(caller.tenantId, pageOf(query, EVENTS_ORDER)),
    );
  }
}
