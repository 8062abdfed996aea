import { Injectable } from '@nestjs/common';
import type { JWTPayload } from 'jose';
import type { IdentityRecord } from '../identity/identity.record';
import {
  AccessRepository,
  IdentityCaller,
  IssuerConfig,
} from './access.repository';
import {
  accountFromClaims,
  identityFromClaims,
  isProvisionableId,
} from './sign-in-claims';
import { SignInRepository } from './sign-in.repository';

/**
 * What a sign-in with a tenant's JWT does besides authenticating: creates
 * the identity a just-in-time issuer's token names when it is new, and
 * moves the identity's `lastLogin` to the token's `auth_time`.
 */
@Injectable()
export class SignInService {
  constructor(
    private readonly access: AccessRepository,
    private readonly signIns: SignInRepository,
  ) {}

  /**
   * The caller `subject` is after creating it from `claims` (signed in at
   * `at`), when `issuer` provisions identities and the subject can be an
   * identityId; read from the primary, whoever of racing requests created
   * it. Undefined otherwise.
   */
  async provision(
    tenantId: string,
    issuer: IssuerConfig,
    subject: string,
    claims: JWTPayload,
    accountId: string | null,
    at: Date | undefined,
  ): Promise<IdentityCaller | undefined> {
    if (
      issuer.provisioning !== 'jit' ||
      issuer.identityMatch !== 'identityId' ||
      !isProvisionableId(subject)
    )
      return undefined;
    const account =
      issuer.accountProvider !== null && accountId !== null
        ? accountFromClaims(claims, accountId, issuer.accountProvider)
        : null;
    await this.signIns.createIdentity(
      tenantId,
      subject,
      { ...identityFromClaims(claims), ...(at && { lastLogin: at }) },
      account,
    );
    return this.access.findIdentityCaller(tenantId, subject, accountId);
  }

  /**
   * The identity after a sign-in at `at`: with `lastLogin` moved forward
   * when that is later (one conditional write; none when it is not).
   */
  async signedIn(
    tenantId: string,
    identity: IdentityRecord,
    at: Date | undefined,
  ): Promise<IdentityRecord> {
    if (!at || (identity.lastLogin && identity.lastLogin >= at))
      return identity;
    return (
      (await this.signIns.recordSignIn(tenantId, identity.identityId, at)) ??
      identity
    );
  }
}
