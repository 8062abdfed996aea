import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Access } from '../common/http/access.decorator';
import { ApiProblems, ApiTenant } from '../common/http/api-docs';
import { headers, RATE_LIMIT } from '../common/http/api-headers';
import { type Exchange, Http } from '../common/http/exchange';
import { PROVIDER_ID } from '../common/validation/field-rules';
import { AccountLinkService } from './account-link.service';
import { LinkCallbackQuery, LinkStartQuery } from './accounts.dto';

const REDIRECT = {
  description:
    'to the provider, or on to the application’s return URL with the result',
  headers: headers(...RATE_LIMIT, 'Location'),
};

/**
 * Sends the browser on, never caching the answer (it holds a one-time
 * state). Nest sends it once the interceptors have run: the write of a
 * callback is recorded for reads on every instance before the browser
 * arrives at the application (read routing).
 */
function redirect({ res }: Exchange, location: string): void {
  res.status(303).setHeader('Location', location);
  res.setHeader('Cache-Control', 'no-store');
}

/**
 * Where browsers go to link an account (docs/api.md, linking an account):
 * public paths, since a redirect carries no Authorization header; what
 * proves the identity is the link URL's ticket.
 */
@ApiTags('link')
@Controller(':tenant/link/v1')
export class AccountLinkController {
  constructor(private readonly links: AccountLinkService) {}

  @Get('callback')
  @Access('public')
  @ApiOperation({
    // No token: a browser arrives here by a redirect.
    security: [],
    summary: 'Where a provider sends the browser back',
    description:
      'Register this URL with the provider. The account that signed in there waits for the confirmation of the identity that started the link: the browser goes on to the return URL with result=confirm and linkCode (for POST …/accounts/link-confirmations with that identity’s token), or result=error and error (access_denied, expired, provider_error). A state that starts no link is a 400.',
  })
  @ApiTenant()
  @ApiResponse({ status: 303, ...REDIRECT })
  @ApiProblems(400, 429, 500, 503)
  async getLinkCallback(
    @Param('tenant') tenantId: string,
    @Query() query: LinkCallbackQuery,
    @Http() http: Exchange,
  ): Promise<void> {
    redirect(http, await this.links.callback(tenantId, query));
  }

  @Get(':accountProviderId/start')
  @Access('public')
  @ApiOperation({
    security: [],
    summary:
      'Link an account: the signInUrl of an identity’s own accounts list',
    description:
      'Send the browser here as the accounts list gives it, optionally with redirect_uri (one of the tenant’s linkReturnUrls; the first otherwise). The ticket is good for a few minutes and one start. 400 when no allowed return URL is named; every other outcome goes on to the return URL.',
  })
  @ApiTenant()
  @ApiParam({
    name: 'accountProviderId',
    schema: { type: 'string', pattern: PROVIDER_ID.source, maxLength: 64 },
  })
  @ApiResponse({ status: 303, ...REDIRECT })
  @ApiProblems(400, 429, 500, 503)
  async getLinkStart(
    @Param('tenant') tenantId: string,
    @Param('accountProviderId') providerId: string,
    @Query() query: LinkStartQuery,
    @Http() http: Exchange,
  ): Promise<void> {
    redirect(
      http,
      await this.links.start(
        tenantId,
        providerId,
        query.ticket,
        query.redirect_uri,
      ),
    );
  }
}
