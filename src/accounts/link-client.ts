import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { boundedCache } from '../common/cache-budget';
import * as oauth from 'openid-client';
import { fetchFromIssuer } from '../auth/issuer-documents';
import { AppConfig } from '../config/app-config';
import { EgressPolicy } from '../common/validation/egress-policy';
import { isLoopbackHost } from '../common/validation/outbound-url';
import type { LinkRow } from '../tenants/tenant-data';
import {
  configurationBytes,
  CONFIGURATIONS_BYTES,
} from './link-configuration-bytes';

/** What a provider says of the account that signed in there. */
export interface LinkedAccount {
  issuedUserId: string;
  displayName?: unknown;
  emailAddress?: unknown;
  pictureUrl?: unknown;
  accountProfileUrl?: unknown;
}

/** A provider that cannot be used as configured, or that failed: `provider_error`. */
export class LinkProviderError extends Error {}

/** How long a discovered provider's configuration is reused. */
const CONFIGURATION_TTL_MS = 10 * 60 * 1000;
const DEFAULT_OIDC_SCOPES = ['openid', 'profile', 'email'];
/** A tenant's provider as linking uses it: its settings, its client secret, a label for logs. */
export interface LinkProvider {
  tenantId: string;
  link: LinkRow;
  /** The client secret, opened; none for a public client. */
  secret: string | undefined;
  label: string;
}

/** The redirect, state and PKCE pieces of one authorization request. */
export interface AuthorizationRequest {
  redirectUri: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/**
 * The OAuth 2.0 / OpenID Connect client of account linking, on
 * `openid-client` (authorization code with PKCE, `state`, and `nonce` with
 * an ID token for OpenID Connect). Every request to a provider goes
 * through the issuers' guarded fetch: the outbound address rules, no
 * redirects, a bounded body and a timeout.
 */
@Injectable()
export class LinkClient {
  private readonly logger = new Logger('Link');
  private readonly configurations = boundedCache<string, oauth.Configuration>({
    max: 1000,
    maxBytes: CONFIGURATIONS_BYTES,
    sizeOf: configurationBytes,
    ttl: CONFIGURATION_TTL_MS,
  });

  private readonly egress: EgressPolicy;

  constructor(private readonly config: AppConfig) {
    this.egress = new EgressPolicy(config);
  }

  /** Where to send the browser: the provider's authorization endpoint with this request. */
  async authorizationUrl(
    provider: LinkProvider,
    request: AuthorizationRequest,
  ): Promise<string> {
    const { link } = provider;
    const configuration = await this.configuration(provider);
    const url = oauth.buildAuthorizationUrl(configuration, {
      redirect_uri: request.redirectUri,
      scope: scopesOf(link).join(' '),
      state: request.state,
      code_challenge: await oauth.calculatePKCECodeChallenge(
        request.codeVerifier,
      ),
      code_challenge_method: 'S256',
      ...(link.type === 'oidc' && { nonce: request.nonce }),
    });
    return url.href;
  }

  /** The account the callback's code stands for, checked as the request asked. */
  async account(
    provider: LinkProvider,
    callbackUrl: URL,
    request: AuthorizationRequest,
  ): Promise<LinkedAccount> {
    const { link, label } = provider;
    const configuration = await this.configuration(provider);
    const tokens = await oauth.authorizationCodeGrant(
      configuration,
      callbackUrl,
      {
        pkceCodeVerifier: request.codeVerifier,
        expectedState: request.state,
        ...(link.type === 'oidc' && {
          expectedNonce: request.nonce,
          idTokenExpected: true,
        }),
      },
      { redirect_uri: request.redirectUri },
    );
    if (link.type === 'oidc') {
      const claims = tokens.claims()!;
      const info = configuration.serverMetadata().userinfo_endpoint
        ? await oauth.fetchUserInfo(
            configuration,
            tokens.access_token,
            claims.sub,
          )
        : {};
      const all = { ...claims, ...info } as Record<string, unknown>;
      return {
        issuedUserId: claims.sub,
        displayName: all.name,
        emailAddress: all.email_verified === true ? all.email : undefined,
        pictureUrl: all.picture,
        accountProfileUrl: all.profile,
      };
    }
    const res = await oauth.fetchProtectedResource(
      configuration,
      tokens.access_token,
      new URL(link.userInfoEndpoint!),
      'GET',
    );
    if (!res.ok)
      throw new LinkProviderError(`${label}: user info answered ${res.status}`);
    const info = (await res.json()) as Record<string, unknown>;
    const field = (key: keyof NonNullable<LinkRow['claims']>) => {
      const name = link.claims?.[key];
      return name === undefined ? undefined : info[name];
    };
    const id = field('issuedUserId');
    if (typeof id !== 'string' && typeof id !== 'number')
      throw new LinkProviderError(`${label}: user info has no user id`);
    return {
      issuedUserId: String(id),
      displayName: field('displayName'),
      emailAddress: field('emailAddress'),
      pictureUrl: field('pictureUrl'),
      accountProfileUrl: field('accountProfileUrl'),
    };
  }

  /** The provider's configuration, under the egress policy of its tenant. */
  private async configuration({
    tenantId,
    link,
    secret,
    label,
  }: LinkProvider): Promise<oauth.Configuration> {
    const allowPrivate = this.egress.allowsPrivate(tenantId);
    // A new secret is a new configuration; the key holds only its digest.
    const key = JSON.stringify([
      link,
      allowPrivate,
      secret === undefined
        ? null
        : createHash('sha256').update(secret).digest('base64url'),
    ]);
    const cached = this.configurations.get(key);
    if (cached) return cached;
    const guardedFetch: oauth.CustomFetch = (url, options) =>
      fetchFromIssuer(url, label, {
        method: options.method,
        headers: options.headers,
        // openid-client sends forms and JSON as strings or URLSearchParams.
        body:
          typeof options.body === 'string' ||
          options.body instanceof URLSearchParams
            ? options.body
            : null,
        signal: AbortSignal.timeout(this.config.jwksTimeoutMs),
        allowPrivate,
      });
    let configuration: oauth.Configuration;
    if (link.type === 'oidc') {
      const server = new URL(link.issuer!);
      configuration = await oauth.discovery(
        server,
        link.clientId,
        undefined,
        undefined,
        {
          [oauth.customFetch]: guardedFetch,
          execute: isLoopbackHost(server.hostname.replace(/^\[|\]$/g, ''))
            ? [oauth.allowInsecureRequests]
            : [],
        },
      );
      const methods =
        configuration.serverMetadata().token_endpoint_auth_methods_supported;
      configuration = new oauth.Configuration(
        configuration.serverMetadata(),
        link.clientId,
        undefined,
        authentication(secret, methods),
      );
    } else {
      configuration = new oauth.Configuration(
        {
          issuer: new URL(link.authorizationEndpoint!).origin,
          authorization_endpoint: link.authorizationEndpoint,
          token_endpoint: link.tokenEndpoint,
          userinfo_endpoint: link.userInfoEndpoint,
        },
        link.clientId,
        undefined,
        authentication(secret, ['client_secret_post']),
      );
    }
    configuration[oauth.customFetch] = guardedFetch;
    const endpoints = [
      configuration.serverMetadata().authorization_endpoint,
      configuration.serverMetadata().token_endpoint,
    ];
    if (endpoints.some((e) => e && isLoopbackHost(new URL(e).hostname)))
      oauth.allowInsecureRequests(configuration);
    this.configurations.set(key, configuration);
    this.logger.debug(`${label}: configured`);
    return configuration;
  }
}

/** The client authentication a provider takes: basic where it says so, else post; none without a secret. */
function authentication(
  secret: string | undefined,
  methods: string[] | undefined,
): oauth.ClientAuth {
  if (secret === undefined) return oauth.None();
  return !methods || methods.includes('client_secret_basic')
    ? oauth.ClientSecretBasic(secret)
    : oauth.ClientSecretPost(secret);
}

function scopesOf(link: LinkRow): string[] {
  return link.scopes ?? (link.type === 'oidc' ? DEFAULT_OIDC_SCOPES : []);
}
