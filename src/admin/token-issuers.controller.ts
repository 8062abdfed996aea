import { Body, Controller, Headers, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Caller } from '../identity/caller.decorator';
import type { AppCaller } from '../identity/principal';
import { answerPage } from '../common/http/collection';
import { conditionalJson, createdJson } from '../common/http/conditional';
import { type Exchange, Http } from '../common/http/exchange';
import { ADMIN_PREFIX } from '../common/http/route-table';
import { PageQuery } from '../common/pagination';
import { JsonBodyPipe } from '../common/validation/json-body.pipe';
import { TokenIssuerEntry } from '../tenants/tenant-file.dto';
import {
  ISSUER_ID,
  ISSUER_KEYS,
  IssuerReplacement,
  IssuerResponseBody,
} from './admin.dto';
import { actorOf } from './admin-rules';
import { adminRoutes } from './admin-routes';
import { ISSUERS_ORDER, TokenIssuersService } from './token-issuers.service';

const Issuer = adminRoutes({
  path: '',
  id: {
    name: 'issuerId',
    description: 'the issuer’s id, as the list shows it',
    schema: { type: 'string', pattern: ISSUER_ID.source, maxLength: 22 },
  },
  called: 'the issuer',
  type: IssuerResponseBody,
});

const RULES =
  'The keys and rules of the tenant file’s tokenIssuers, the outbound address rules included; another tenant’s issuer and audience is a 409. Every instance follows a change within 5 seconds, keys included.';

/** The tenant's token issuers (docs/api.md, administration). */
@ApiTags('admin')
@Controller(`${ADMIN_PREFIX}/token-issuers`)
export class TokenIssuersController {
  constructor(private readonly issuers: TokenIssuersService) {}

  @Issuer.list({
    summary: 'The tenant’s token issuers, a page at a time',
    description: 'In their order.',
  })
  async getIssuers(
    @Caller() caller: AppCaller,
    @Query() query: PageQuery,
    @Http() http: Exchange,
  ): Promise<string | undefined> {
    return answerPage(http, query, ISSUERS_ORDER, (page) =>
      this.issuers.listIssuers(caller.tenantId, page),
    );
  }

  @Issuer.create(
    {
      summary: 'Trust a token issuer',
      description: `After the others; 409 when the tenant trusts it already. ${RULES} Recorded in the audit log.`,
    },
    TokenIssuerEntry,
    { problems: [409] },
  )
  async createIssuer(
    @Caller() caller: AppCaller,
    @Body(new JsonBodyPipe(TokenIssuerEntry, ISSUER_KEYS))
    body: Readonly<TokenIssuerEntry>,
    @Http() http: Exchange,
  ): Promise<string> {
    const issuer = await this.issuers.createIssuer(
      caller.tenantId,
      body,
      actorOf(caller.appId),
    );
    return createdJson(http, issuer.id, issuer);
  }

  @Issuer.read({ summary: 'A token issuer' })
  async getIssuer(
    @Caller() caller: AppCaller,
    @Param('issuerId') id: string,
    @Http() http: Exchange,
  ): Promise<string | undefined> {
    const issuer = await this.issuers.issuer(caller.tenantId, id);
    return conditionalJson(http, JSON.stringify(issuer));
  }

  @Issuer.change(
    'PUT',
    {
      summary: 'Replace a token issuer’s settings',
      description: `Every key: the ones left out take their defaults; its issuer URL stays (another URL is another issuer). ${RULES} Recorded in the audit log with the settings before and after.`,
    },
    IssuerReplacement,
    [409],
  )
  async replaceIssuer(
    @Caller() caller: AppCaller,
    @Param('issuerId') id: string,
    @Body(new JsonBodyPipe(IssuerReplacement, [...ISSUER_KEYS, 'id']))
    body: Readonly<IssuerReplacement>,
    @Headers('if-match') ifMatch: string | undefined,
    @Http() http: Exchange,
  ): Promise<string | undefined> {
    const issuer = await this.issuers.replaceIssuer(
      caller.tenantId,
      id,
      body,
      ifMatch,
      actorOf(caller.appId),
    );
    return conditionalJson(http, JSON.stringify(issuer));
  }

  @Issuer.remove(
    {
      summary: 'Stop trusting a token issuer',
      description:
        'Its tokens answer 401 on every instance within 5 seconds; the identities it created stay. Recorded in the audit log.',
    },
    'removed',
  )
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
