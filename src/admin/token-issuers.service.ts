import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import {
  EgressPolicy,
  egressFieldErrors,
} from '../common/validation/egress-policy';
import { createHash } from 'node:crypto';
import { JwtVerifier } from '../auth/jwt-verifier';
import {
  IssuerNotFound,
  PreconditionFailed,
  SettingConflict,
} from '../common/errors';
import { ifMatchAllows } from '../common/http/if-match';
import type { Collection, Page } from '../common/pagination';
import { withoutNulls } from '../common/representation';
import type { FieldError } from '../common/validation/field-errors';
import type { IssuerRow } from '../tenants/tenant-data';
import type { TokenIssuerEntry } from '../tenants/tenant-file.dto';
import { issuerRow } from '../tenants/tenant-file.validator';
import { invalid, invalidFields, pageByPosition, tagOf } from './admin-rules';
import {
  type IssuerRefusal,
  TokenIssuersRepository,
} from './token-issuers.repository';

/** Issuers are listed in their order, as the tenant file has them. */
export const ISSUERS_ORDER = ['position'] as const;

/** The most issuers a tenant has; more is a 400. */
export const MAX_ISSUERS = 100;

/**
 * An issuer's id in the admin API's paths: its URL's SHA-256, base64url,
 * 22 characters. Stable while the URL is (the URL is what an issuer is),
 * and free of the slashes and colons a URL would bring into a path.
 */
export const issuerId = (issuer: string) =>
  createHash('sha256').update(issuer).digest('base64url').slice(0, 22);

/** A token issuer as the admin API and the command line show it. */
export type IssuerResponse = { id: string } & Required<
  Omit<
    TokenIssuerEntry,
    'jwksUri' | 'accountClaim' | 'provisioning' | 'accountProvider'
  >
> &
  Pick<
    TokenIssuerEntry,
    'jwksUri' | 'accountClaim' | 'provisioning' | 'accountProvider'
  >;

export function issuerResponse({
  position: _position,
  ...row
}: IssuerRow): IssuerResponse {
  return { id: issuerId(row.issuer), ...withoutNulls(row) } as IssuerResponse;
}

function refusal(issuer: string, refused: IssuerRefusal, at = ''): Error {
  switch (refused.refused) {
    case 'stale':
      return new PreconditionFailed('the current ETag of the issuer');
    case 'exists':
      return new SettingConflict(
        'issuer-exists',
        `The tenant already trusts issuer "${issuer}"; PUT at its id changes it.`,
      );
    case 'full':
      return invalid(
        'issuer',
        `is one more than the ${MAX_ISSUERS} a tenant may have`,
      );
    case 'unknown-provider':
      return invalid(`${at}accountProvider`, 'is not a provider of the tenant');
    case 'taken':
      return new SettingConflict(
        'issuer-taken',
        `Another tenant trusts issuer "${issuer}" with the audiences ${refused.audiences.map((a) => `"${a}"`).join(', ')}: a token must be valid on one tenant's paths only.`,
      );
  }
}

const isRefusal = (value: object): value is IssuerRefusal => 'refused' in value;

/**
 * The tenant's token issuers, one at a time (docs/api.md, administration),
 * with the tenant file's keys and rules, for the admin API and the command
 * line alike.
 */
@Injectable()
export class TokenIssuersService {
  constructor(
    private readonly issuers: TokenIssuersRepository,
    private readonly verifier: JwtVerifier,
    config: AppConfig,
  ) {
    this.egress = new EgressPolicy(config);
  }

  private readonly egress: EgressPolicy;

  async listIssuers(
    tenantId: string,
    page: Page,
  ): Promise<Collection<IssuerResponse[]>> {
    return pageByPosition(
      page,
      (after, limit) => this.issuers.findIssuers(tenantId, after, limit),
      issuerResponse,
    );
  }

  /** The issuer with this id (or, for the command line, this URL). */
  async issuer(tenantId: string, idOrUrl: string): Promise<IssuerResponse> {
    return issuerResponse(await this.find(tenantId, idOrUrl));
  }

  async createIssuer(
    tenantId: string,
    body: TokenIssuerEntry,
    actor: string,
  ): Promise<IssuerResponse> {
    const row = this.checked(tenantId, body);
    const created = await this.issuers.createIssuer(
      tenantId,
      row,
      actor,
      MAX_ISSUERS,
    );
    this.verifier.forgetIssuers(tenantId);
    if (isRefusal(created)) throw refusal(row.issuer, created);
    return issuerResponse(created);
  }

  /**
   * Replaces the issuer's settings (its URL stays: another URL is another
   * issuer); 412 when If-Match names others.
   */
  async replaceIssuer(
    tenantId: string,
    idOrUrl: string,
    body: TokenIssuerEntry & { id?: string },
    ifMatch: string | undefined,
    actor: string,
  ): Promise<IssuerResponse> {
    const { issuer } = await this.find(tenantId, idOrUrl);
    const { id, ...entry } = body;
    const errors: FieldError[] = [];
    if (entry.issuer !== issuer)
      errors.push({
        field: 'issuer',
        message: `must stay "${issuer}": another URL is another issuer (POST it, then DELETE this one)`,
      });
    if (id !== undefined && id !== issuerId(issuer))
      errors.push({ field: 'id', message: `must be "${issuerId(issuer)}"` });
    if (errors.length) throw invalidFields(errors);
    const row = this.checked(tenantId, entry);
    const updated = await this.issuers.updateIssuer(
      tenantId,
      row,
      (current) => ifMatchAllows(ifMatch, tagOf(issuerResponse(current))),
      actor,
    );
    this.verifier.forgetIssuers(tenantId);
    if (!updated) throw new IssuerNotFound(idOrUrl);
    if (isRefusal(updated)) throw refusal(issuer, updated);
    return issuerResponse(updated);
  }

  async removeIssuer(
    tenantId: string,
    idOrUrl: string,
    ifMatch: string | undefined,
    actor: string,
  ): Promise<void> {
    const { issuer } = await this.find(tenantId, idOrUrl);
    const removed = await this.issuers.removeIssuer(
      tenantId,
      issuer,
      (current) => ifMatchAllows(ifMatch, tagOf(issuerResponse(current))),
      actor,
    );
    this.verifier.forgetIssuers(tenantId);
    if (!removed) throw new IssuerNotFound(idOrUrl);
    if (isRefusal(removed)) throw refusal(issuer, removed);
  }

  /**
   * The row `entry` stands for, by the tenant file's rules (the provider's
   * existence aside) and the egress policy of the tenant's addresses.
   */
  private checked(
    tenantId: string,
    entry: TokenIssuerEntry,
  ): Omit<IssuerRow, 'position'> {
    const errors: FieldError[] = egressFieldErrors(
      this.egress.allowsPrivate(tenantId),
      { issuer: entry.issuer, jwksUri: entry.jwksUri },
    );
    const { position: _p, ...row } = issuerRow(
      entry,
      0,
      { has: () => true },
      (field, message) => errors.push({ field, message }),
    );
    if (errors.length) throw invalidFields(errors);
    return row;
  }

  private async find(tenantId: string, idOrUrl: string): Promise<IssuerRow> {
    const rows = await this.issuers.findIssuers(
      tenantId,
      undefined,
      MAX_ISSUERS * 10,
    );
    const row = rows.find(
      (r) => issuerId(r.issuer) === idOrUrl || r.issuer === idOrUrl,
    );
    if (!row) throw new IssuerNotFound(idOrUrl);
    return row;
  }
}
