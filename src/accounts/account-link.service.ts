import { Injectable, Logger } from '@nestjs/common';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { isEmail } from 'class-validator';
import * as oauth from 'openid-client';
import { InvalidRequest, LinkNotFound } from '../common/errors';
import { isHttpUrl, isStorableText } from '../common/validation/field-rules';
import { AppConfig } from '../config/app-config';
import { AccountLinkRepository } from './account-link.repository';
import type { AccountResponse } from './accounts.dto';
import type { NewAccount } from './accounts.repository';
import { AccountsService } from './accounts.service';
import {
  LinkClient,
  type LinkedAccount,
  type LinkProvider,
  LinkProviderError,
} from './link-client';
import type { LinkRow } from '../tenants/tenant-data';
import { SecretBox, SecretUnreadable } from '../common/secrets/secret-box';
import { secretContext } from '../tenants/client-secrets';
import { LinkTickets } from './link-tickets';

/** What the application learns at its return URL (docs/api.md, linking an account). */
export type LinkError = 'access_denied' | 'expired' | 'provider_error';

/** A link's outcome at the return URL: the code that confirms it, or why there is none. */
type LinkResult = { linkCode: string } | { error: LinkError };

/** A callback's query, as the provider sent it (checked: LinkCallbackQuery). */
export interface CallbackQuery {
  state: string;
  code?: string;
  error?: string;
  iss?: string;
}

/** The longest value of an account's field, as the accounts API takes them. */
const MAX_TEXT = 512;

/** The return URL with the result in its query. */
function resultUrl(
  returnUrl: string,
  providerId: string,
  result: LinkResult,
): string {
  const url = new URL(returnUrl);
  url.searchParams.set('accountProviderId', providerId);
  if ('linkCode' in result) {
    url.searchParams.set('result', 'confirm');
    url.searchParams.set('linkCode', result.linkCode);
  } else {
    url.searchParams.set('result', 'error');
    url.searchParams.set('error', result.error);
  }
  return url.href;
}

/** A value a provider gave, kept when it fits the account's field. */
const text = (value: unknown, max: number) =>
  typeof value === 'string' &&
  value.length > 0 &&
  value.length <= max &&
  isStorableText(value)
    ? value
    : null;
const url = (value: unknown) =>
  isHttpUrl(value) ? text(value, MAX_TEXT) : null;

/** What the database keeps of a link code: never the code itself. */
const hashOf = (linkCode: string) =>
  createHash('sha256').update(linkCode).digest('base64url');

/**
 * Account linking through signInUrl: a browser arrives with a ticket, is
 * sent to the provider, comes back with a code, and the account that
 * signed in there waits for the ticket's identity to confirm it. Every
 * outcome of the browser's way sends it on to one of the tenant's return
 * URLs with the result; only a request that names no allowed return URL
 * gets a 400. The link URL proves nothing about who completes it (it may
 * be handed to somebody else), so the account is recorded only when the
 * application confirms the one-time code with the starting identity's own
 * token.
 */
@Injectable()
export class AccountLinkService {
  private readonly logger = new Logger('Link');

  constructor(
    private readonly config: AppConfig,
    private readonly links: AccountLinkRepository,
    private readonly tickets: LinkTickets,
    private readonly client: LinkClient,
    private readonly accounts: AccountsService,
    private readonly secrets: SecretBox,
  ) {}

  /** The provider's callback URL, as registered with the provider. */
  callbackUrl(tenantId: string): string {
    return `${this.config.publicUrl}/${encodeURIComponent(tenantId)}/link/v1/callback`;
  }

  /** Where the browser that opened a link URL goes next. */
  async start(
    tenantId: string,
    providerId: string,
    ticket: unknown,
    redirectUri: unknown,
  ): Promise<string> {
    const target = await this.links.findLinkTarget(tenantId, providerId);
    if (!target || target.returnUrls.length === 0)
      throw new InvalidRequest(
        'This tenant names no return URL for linking accounts.',
      );
    let returnUrl = target.returnUrls[0];
    if (redirectUri !== undefined) {
      if (
        typeof redirectUri !== 'string' ||
        !target.returnUrls.includes(redirectUri)
      )
        throw new InvalidRequest(
          'redirect_uri is not one of the tenant’s return URLs.',
          [{ field: 'redirect_uri', message: 'is not an allowed return URL' }],
        );
      returnUrl = redirectUri;
    }
    const fail = (error: LinkError) =>
      resultUrl(returnUrl, providerId, { error });
    const provider = target.provider;
    if (!provider?.link) return fail('provider_error');
    const read = await this.tickets.read(tenantId, providerId, ticket);
    if (typeof read === 'string') return fail('expired');
    const request = {
      redirectUri: this.callbackUrl(tenantId),
      state: oauth.randomState(),
      nonce: oauth.randomNonce(),
      codeVerifier: oauth.randomPKCECodeVerifier(),
    };
    let location: string;
    try {
      location = await this.client.authorizationUrl(
        this.linkProvider(tenantId, providerId, {
          link: provider.link,
          sealedSecret: provider.sealedSecret,
        }),
        request,
      );
    } catch (error) {
      this.warn(tenantId, providerId, error);
      return fail('provider_error');
    }
    const started = await this.links.startAttempt(
      {
        state: request.state,
        tenantId,
        identityId: read.identityId,
        accountProviderId: providerId,
        codeVerifier: request.codeVerifier,
        nonce: request.nonce,
        returnUrl,
      },
      read.hash,
      this.config.linkAttemptSeconds,
      2 * this.config.linkTicketSeconds + this.config.linkAttemptSeconds,
    );
    return started === 'started' ? location : fail('expired');
  }

  /** Where the browser the provider sent back goes, with a code to confirm the account or why not. */
  async callback(tenantId: string, query: CallbackQuery): Promise<string> {
    const state = query.state;
    if (typeof state !== 'string' || !/^[A-Za-z0-9_-]{1,128}$/.test(state))
      throw new InvalidRequest('This is not a callback of a link under way.');
    const attempt = await this.links.claimAttempt(tenantId, state);
    if (!attempt)
      throw new InvalidRequest('This is not a callback of a link under way.');
    if ('spent' in attempt)
      return resultUrl(attempt.returnUrl, attempt.accountProviderId, {
        error: 'expired',
      });
    const { accountProviderId: providerId, returnUrl } = attempt;
    const done = (result: LinkResult) =>
      resultUrl(returnUrl, providerId, result);
    if (query.error !== undefined)
      return done({
        error:
          query.error === 'access_denied' ? 'access_denied' : 'provider_error',
      });
    const target = await this.links.findLinkTarget(tenantId, providerId);
    const provider = target?.provider;
    if (!provider?.link) return done({ error: 'provider_error' });
    const callbackUrl = new URL(this.callbackUrl(tenantId));
    for (const key of ['code', 'state', 'iss'] as const)
      if (typeof query[key] === 'string')
        callbackUrl.searchParams.set(key, query[key]);
    let account: LinkedAccount;
    try {
      account = await this.client.account(
        this.linkProvider(tenantId, providerId, {
          link: provider.link,
          sealedSecret: provider.sealedSecret,
        }),
        callbackUrl,
        {
          redirectUri: this.callbackUrl(tenantId),
          state,
          nonce: attempt.nonce,
          codeVerifier: attempt.codeVerifier,
        },
      );
    } catch (error) {
      this.warn(tenantId, providerId, error);
      return done({ error: 'provider_error' });
    }
    const issuedUserId = text(account.issuedUserId, MAX_TEXT);
    if (!issuedUserId) return done({ error: 'provider_error' });
    const email = text(account.emailAddress, MAX_TEXT);
    const linkCode = randomBytes(32).toString('base64url');
    const kept = await this.links.awaitConfirmation(
      tenantId,
      state,
      {
        accountId: randomUUID(),
        accountProviderId: providerId,
        issuedUserId,
        accountPrivatePersonalIdentifier: null,
        displayName: text(account.displayName, MAX_TEXT),
        // The rule of an account's address elsewhere (IsEmailAddress).
        emailAddress: email && isEmail(email) ? email : null,
        accountProfileUrl: url(account.accountProfileUrl),
        pictureUrl: url(account.pictureUrl),
      } satisfies NewAccount,
      hashOf(linkCode),
      this.config.linkAttemptSeconds,
    );
    return done(kept ? { linkCode } : { error: 'expired' });
  }

  /**
   * Records the account a link code waits with, when the caller is the
   * identity that started the link; the code is spent by any attempt, so
   * whoever holds it gets one try. Anything else is one 404 that says
   * nothing of whose the code was.
   */
  async confirm(
    tenantId: string,
    identityId: string,
    linkCode: string,
  ): Promise<AccountResponse> {
    const pending = await this.links.takeConfirmation(
      tenantId,
      hashOf(linkCode),
    );
    if (!pending?.live || pending.identityId !== identityId)
      throw new LinkNotFound();
    return this.accounts.addAccount(tenantId, identityId, pending.account);
  }

  /**
   * The tenant's provider as the client links with it, its client secret
   * opened; a LinkProviderError when no key opens it.
   */
  private linkProvider(
    tenantId: string,
    providerId: string,
    { link, sealedSecret }: { link: LinkRow; sealedSecret: string | null },
  ): LinkProvider {
    const label = this.label(tenantId, providerId);
    if (sealedSecret === null)
      return { tenantId, link, secret: undefined, label };
    try {
      const context = secretContext(tenantId, providerId);
      const secret = this.secrets.open(sealedSecret, context);
      return { tenantId, link, secret, label };
    } catch (error) {
      if (!(error instanceof SecretUnreadable)) throw error;
      throw new LinkProviderError(`the client secret is ${error.message}`);
    }
  }

  private label(tenantId: string, providerId: string): string {
    return `link provider "${providerId}" of tenant "${tenantId}"`;
  }

  /** A provider's failure, in the log without a secret (openid-client's messages hold none). */
  private warn(tenantId: string, providerId: string, error: unknown): void {
    const e = error as { message?: string; code?: string };
    const label = this.label(tenantId, providerId);
    // Most of linking's own errors begin with the label already.
    const message = (e.message ?? 'failed').replace(`${label}: `, '');
    this.logger.warn(
      `${label}: ${[e.code, message].filter(Boolean).join(' ')}`,
    );
  }
}
