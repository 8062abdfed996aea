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
import { JsonBodyPipe } from '../common/validation/json-body.pipe';
import { TokenIssuerEntry } from '../tenants/tenant-file.dto';
import {
  ISSUER_ID,
  ISSUER_KEYS,
  IssuerReplacement,
  IssuerResponseBody,
} from './admin.dto';
import { actorOf, WHO } from './admin-rules';
import { ISSUERS_ORDER, TokenIssuersService } from './token-issuers.service';

const ISSUER = () =>
  ApiParam({
    name: 'issuerId',
    description: 'the issuer’s id, as the list shows it',
    schema: { type: 'string', pattern: ISSUER_ID.source, maxLength: 22 },
  });

const RULES =
  'The keys and rules of the tenant file’s tokenIssuers, the outbound address rules included; another tenant’s issuer and audience is a 409. Every instance follows a change within 5 seconds, keys included.';

/** The tenant's token issuers (docs/api.md, administration). */
@ApiTags('admin')
@Controller(`${ADMIN_PREFIX}/token-issuers`)
export class TokenIssuersController {
  constructor(private readonly issuers: TokenIssuersService) {}

  @Get()
  @Access('admin')
  @ApiOperation({
    summary: 'The tenant’s token issuers, a page at a time',
    description: `In their order. ${WHO}`,
  })
  @ApiAdminRoute()
  @ApiConditionalGet()
  @ApiPaging()
  @ApiOkResponse({
    type: [IssuerResponseBody],
    headers: headers(...RATE_LIMIT, 'ETag', 'Link'),
  })
  async getIssuers(
    @Caller() caller: AppCaller,
    @Query() query: PageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string | undefined> {
    return answerCollection(
      req,
      res,
      await this.issuers.listIssuers(
        caller.tenantId,
        pageOf(query, ISSUERS_ORDER),
      ),
    );
  }

  @Post()
  @Access('admin')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Trust a token issuer',
    description: `After the others; 409 when the tenant trusts it already. ${RULES} Recorded in the audit log. ${WHO}`,
  })
  @ApiAdminRoute(409, 413, 415)
  @ApiBody({ type: TokenIssuerEntry })
  @ApiCreatedResponse({
    type: IssuerResponseBody,
    headers: headers(...RATE_LIMIT, 'ETag', 'Location'),
  })
  async createIssuer(
    @Caller() caller: AppCaller,
    @Body(new JsonBodyPipe(TokenIssuerEntry, ISSUER_KEYS))
    body: Readonly<TokenIssuerEntry>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    const issuer = await this.issuers.createIssuer(
      caller.tenantId,
      body,
      actorOf(caller.appId),
    );
    return createdJson(res, `${req.path}/${issuer.id}`, issuer);
  }

  @Get(':issuerId')
  @Access('admin')
  @ApiOperation({ summary: 'A token issuer', description: WHO })
  @ApiAdminRoute(404)
  @ISSUER()
  @ApiConditionalGet()
  @ApiOkResponse({
    type: IssuerResponseBody,
    headers: headers(...RATE_LIMIT, 'ETag'),
  })
  async getIssuer(
    @Caller() caller: AppCaller,
    @Param('issuerId') id: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string | undefined> {
    const issuer = await this.issuers.issuer(caller.tenantId, id);
    return conditionalJson(req, res, JSON.stringify(issuer));
  }

  @Put(':issuerId')
  @Access('admin')
  @ApiOperation({
    summary: 'Replace a token issuer’s settings',
    description: `Every key: the ones left out take their defaults; its issuer URL stays (another URL is another issuer). ${RULES} Recorded in the audit log with the settings before and after. ${WHO}`,
  })
  @ApiAdminRoute(404, 409, 412, 413, 415)
  @ISSUER()
  @ApiIfMatch('the issuer')
  @ApiBody({ type: IssuerReplacement })
  @ApiOkResponse({
    type: IssuerResponseBody,
    headers: headers(...RATE_LIMIT, 'ETag'),
  })
  async replaceIssuer(
    @Caller() caller: AppCaller,
    @Param('issuerId') id: string,
    @Body(new JsonBodyPipe(IssuerReplacement, [...ISSUER_KEYS, 'id']))
    body: Readonly<IssuerReplacement>,
    @Headers('if-match') ifMatch: string | undefined,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string | undefined> {
    const issuer = await this.issuers.replaceIssuer(
      caller.tenantId,
      id,
      body,
      ifMatch,
      actorOf(caller.appId),
    );
    return conditionalJson(req, res, JSON.stringify(issuer));
  }

  @Delete(':issuerId')
  @Access('admin')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Stop trusting a token issuer',
    description: `Its tokens answer 401 on every instance within 5 seconds; the identities it created stay. Recorded in the audit log. ${WHO}`,
  })
  @ApiAdminRoute(404, 412)
  @ISSUER()
  @ApiIfMatch('the issuer')
  @ApiNoContentResponse({
    description: 'removed',
    headers: headers(...RATE_LIMIT),
  })
  async removeIssuer(
    @Caller() caller: AppCaller,
    @Param('issuerId') id: string,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<void> {
    await this.issuers.removeIssuer(
      caller.tenantId,
      id,
      ifMatch,
      actorOf(caller.appId),
    );
  }
}
