import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { builder, statement } from '../database/sql';
import type { Transaction } from '../database/database';
import type { IssuerRow } from '../tenants/tenant-data';
import { afterPosition, SettingsRows } from './settings-rows.repository';

/** Why a change of an issuer was not made; the service says it. */
export type IssuerRefusal =
  | { refused: 'stale' }
  | { refused: 'exists' }
  | { refused: 'full' }
  | { refused: 'unknown-provider' }
  | { refused: 'taken'; audiences: string[] };

const COLUMNS = {
  issuer: true,
  position: true,
  jwksUri: true,
  audiences: true,
  algorithms: true,
  identityClaim: true,
  identityMatch: true,
  accountClaim: true,
  appIdClaims: true,
  scopeClaim: true,
  provisioning: true,
  accountProvider: true,
} as const;

/** A token issuer of the tenant, its row locked for the transaction. */
const LOCK_ISSUER = statement((p: { tenantId: string; issuer: string }) =>
  builder
    .selectFrom('token_issuer')
    .select([
      'issuer',
      'position',
      'jwks_uri as jwksUri',
      'audiences',
      'algorithms',
      'identity_claim as identityClaim',
      'identity_match as identityMatch',
      'account_claim as accountClaim',
      'app_id_claims as appIdClaims',
      'scope_claim as scopeClaim',
      'provisioning',
      'account_provider_id as accountProvider',
    ])
    .where('tenant_id', '=', p.tenantId)
    .where('issuer', '=', p.issuer)
    .forUpdate(),
);

async function lockIssuer(
  tx: Transaction,
  tenantId: string,
  issuer: string,
): Promise<IssuerRow | null> {
  const [row]: (IssuerRow | undefined)[] = await tx.rows(LOCK_ISSUER, {
    tenantId,
    issuer,
  });
  return row ?? null;
}

/**
 * A tenant's token issuers; each change as SettingsRows makes it. The
 * verifiers of every instance read them again within their cache's time
 * (JwtVerifier), so a change reaches every instance in seconds.
 */
@Injectable()
export class TokenIssuersRepository {
  private readonly issuers: SettingsRows<IssuerRow>;

  constructor(private readonly database: Database) {
    this.issuers = new SettingsRows(database, 'issuer', lockIssuer);
  }

  /** The issuers in their order, after position `after`. */
  findIssuers(
    tenantId: string,
    after: number | undefined,
    limit: number,
  ): Promise<IssuerRow[]> {
    return this.database.models.tokenIssuer.findMany({
      ...afterPosition(tenantId, after, limit),
      select: COLUMNS,
    }) as Promise<IssuerRow[]>;
  }

  /**
   * Adds the issuer after the others; refused as 'full' when the tenant
   * has `max` already, counted behind the tenant's settings lock so that
   * concurrent requests cannot each count the others out.
   */
  createIssuer(
    tenantId: string,
    row: Omit<IssuerRow, 'position'>,
    actor: string,
    max: number,
  ): Promise<IssuerRow | IssuerRefusal> {
    return this.issuers.create(
      tenantId,
      row.issuer,
      actor,
      async (tx) => {
        const { _max } = await tx.models.tokenIssuer.aggregate({
          where: { tenantId },
          _max: { position: true },
        });
        const created = { ...row, position: (_max.position ?? -1) + 1 };
        await tx.models.tokenIssuer.create({ data: { tenantId, ...created } });
        return created;
      },
      async (tx) =>
        (await tx.models.tokenIssuer.count({ where: { tenantId } })) >= max
          ? { refused: 'full' as const }
          : this.refusal(tx, tenantId, row),
    );
  }

  /**
   * Replaces the issuer's settings, when `check` passes on the current
   * ones; null when there is no such issuer.
   */
  updateIssuer(
    tenantId: string,
    row: Omit<IssuerRow, 'position'>,
    check: (current: IssuerRow) => boolean,
    actor: string,
  ): Promise<IssuerRow | IssuerRefusal | null> {
    return this.issuers.replace(
      tenantId,
      row.issuer,
      check,
      actor,
      row,
      (tx) =>
        tx.models.tokenIssuer.update({
          where: { tenantId_issuer: { tenantId, issuer: row.issuer } },
          data: row,
        }),
      (tx) => this.refusal(tx, tenantId, row),
    );
  }

  /** Removes the issuer when `check` passes; null when there is none. */
  removeIssuer(
    tenantId: string,
    issuer: string,
    check: (current: IssuerRow) => boolean,
    actor: string,
  ): Promise<IssuerRow | IssuerRefusal | null> {
    return this.issuers.remove(
      tenantId,
      issuer,
      check,
      actor,
      async (tx, current) => {
        await tx.models.tokenIssuer.delete({
          where: { tenantId_issuer: { tenantId, issuer } },
        });
        return current;
      },
    );
  }

  /**
   * What the tenant's data refuses of `row`: a provider it does not have,
   * or an issuer and audience that another tenant trusts (a JWT must never
   * be valid on two tenants' paths). Which tenant is not said.
   */
  private async refusal(
    tx: Transaction,
    tenantId: string,
    row: Omit<IssuerRow, 'position'>,
  ): Promise<IssuerRefusal | undefined> {
    if (
      row.accountProvider !== null &&
      !(await tx.models.accountProvider.count({
        where: { tenantId, accountProviderId: row.accountProvider },
      }))
    )
      return { refused: 'unknown-provider' };
    const others = await tx.models.tokenIssuer.findMany({
      where: {
        issuer: row.issuer,
        tenantId: { not: tenantId },
        audiences: { hasSome: row.audiences },
      },
      select: { audiences: true },
    });
    const taken = row.audiences.filter((a) =>
      others.some((o) => o.audiences.includes(a)),
    );
    return taken.length ? { refused: 'taken', audiences: taken } : undefined;
  }
}
