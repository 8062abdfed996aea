import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Put,
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
  ApiAdminRoute,
  ApiConditionalGet,
  ApiIfMatch,
  ApiPaging,
} from '../common/http/api-docs';
import { headers, RATE_LIMIT } from '../common/http/api-headers';
import { answerCollection } from '../common/http/collection';
import { conditionalJson, createdJson } from '../common/http/conditional';
import { ADMIN_PREFIX } from '../common/http/route-table';
import { pageOf, PageQuery } from '../common/pagination';
import { PROVIDER_ID } from '../common/validation/field-rules';
import { JsonBodyPipe } from '../common/validation/json-body.pipe';
import { AccountProviderEntry } from '../tenants/tenant-file.dto';
import {
  PROVIDER_KEYS,
  ProviderReplacement,
  RemoveProviderQuery,
} from './admin.dto';
import { actorOf, WHO } from './admin-rules';
import {
  AccountProvidersService,
  PROVIDERS_ORDER,
} from './account-providers.service';

const PROVIDER = () =>
  ApiParam({
    name: 'accountProviderId',
    description: 'the provider’s id',
    schema: { type: 'string', pattern: PROVIDER_ID.source, maxLength: 64 },
  });

/** The tenant's account providers (docs/api.md, administration). */
@ApiTags('admin')
@Controller(`${ADMIN_PREFIX}/account-providers`)
export class AccountProvidersController {
  constructor(private readonly providers: AccountProvidersService) {}

  @Get()
  @Access('admin')
  @ApiOperation({
    summary: 'The tenant’s account providers, a page at a time',
    description: `In their order, the order accounts are grouped in. ${WHO}`,
  })
  @ApiAdminRoute()
  @ApiConditionalGet()
  @ApiPaging()
  @ApiOkResponse({
    type: [AccountProviderEntry],
    headers: headers(...RATE_LIMIT, 'ETag', 'Link'),
  })
  async getProviders(
    @Caller() caller: AppCaller,
    @Query() query: PageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string | undefined> {
    return answerCollection(
      req,
      res,
      await this.providers.listProviders(
        caller.tenantId,
        pageOf(query, PROVIDERS_ORDER),
      ),
    );
  }

  @Post()
  @Access('admin')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Add an account provider',
    description: `After the others. 409 when the id is taken. Recorded in the audit log. ${WHO}`,
  })
  @ApiAdminRoute(409, 413, 415)
  @ApiBody({ type: AccountProviderEntry })
  @ApiCreatedResponse({
    type: AccountProviderEntry,
    headers: headers(...RATE_LIMIT, 'ETag', 'Location'),
  })
  async createProvider(
    @Caller() caller: AppCaller,
    @Body(new JsonBodyPipe(AccountProviderEntry, PROVIDER_KEYS))
    body: Readonly<AccountProviderEntry>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    const provider = await this.providers.createProvider(
      caller.tenantId,
      body,
      actorOf(caller.appId),
    );
    return createdJson(
      res,
      `${req.path}/${encodeURIComponent(provider.accountProviderId)}`,
      provider,
    );
  }

  @Get(':accountProviderId')
  @Access('admin')
  @ApiOperation({ summary: 'An account provider', description: WHO })
  @ApiAdminRoute(404)
  @PROVIDER()
  @ApiConditionalGet()
  @ApiOkResponse({
    type: AccountProviderEntry,
    headers: headers(...RATE_LIMIT, 'ETag'),
  })
  async getProvider(
    @Caller() caller: AppCaller,
    @Param('accountProviderId') id: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string | undefined> {
    const provider = await this.providers.provider(caller.tenantId, id);
    return conditionalJson(req, res, JSON.stringify(provider));
  }

  @Put(':accountProviderId')
  @Access('admin')
  @ApiOperation({
    summary: 'Replace an account provider’s settings',
    description: `Every setting: the ones left out take their defaults. 409 when allowsMultipleAccounts becomes false while an identity has several accounts there. Accounts, their tokens and the issuers that name it stay. Recorded in the audit log with the settings before and after. ${WHO}`,
  })
  @ApiAdminRoute(404, 409, 412, 413, 415)
  @PROVIDER()
  @ApiIfMatch('the provider')
  @ApiBody({ type: ProviderReplacement })
  @ApiOkResponse({
    type: AccountProviderEntry,
    headers: headers(...RATE_LIMIT, 'ETag'),
  })
  async replaceProvider(
    @Caller() caller: AppCaller,
    @Param('accountProviderId') id: string,
    @Body(new JsonBodyPipe(ProviderReplacement, PROVIDER_KEYS))
    body: Readonly<ProviderReplacement>,
    @Headers('if-match') ifMatch: string | undefined,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string | undefined> {
    const provider = await this.providers.replaceProvider(
      caller.tenantId,
      id,
      body,
      ifMatch,
      actorOf(caller.appId),
    );
    return conditionalJson(req, res, JSON.stringify(provider));
  }

  @Delete(':accountProviderId')
  @Access('admin')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Remove an account provider',
    description: `409 while a token issuer names it, or while it has accounts unless ?deleteAccounts=true, which removes them (and the tokens issued for them) in the same transaction, each identity's removal in the change log. Recorded in the audit log. ${WHO}`,
  })
  @ApiAdminRoute(404, 409, 412)
  @PROVIDER()
  @ApiIfMatch('the provider')
  @ApiNoContentResponse({
    description: 'removed',
    headers: headers(...RATE_LIMIT),
  })
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
