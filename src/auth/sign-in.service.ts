import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
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
  isClaimedEmail,
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
   * `at`), when `issuer` provisions identities; read from the primary,
   * whoever of racing requests created it. Undefined otherwise. With
   * identityMatch `identityId` the subject is the new identity's id (when it
   * can be one); otherwise the identity gets a new id and carries the
   * subject as the key its issuer matches (docs/api.md).
   */
  async provision(
    tenantId: string,
    issuer: IssuerConfig,
    subject: string,
    claims: JWTPayload,
    accountId: string | null,
    at: Date | undefined,
  ): Promise<IdentityCaller | undefined> {
    const match = issuer.identityMatch;
    if (
      issuer.provisioning !== 'jit' ||
      (match === 'identityId' && !isProvisionableId(subject)) ||
      (match === 'verifiedEmail' && !isClaimedEmail(subject))
    )
      return undefined;
    const provider = issuer.accountProvider;
    const account =
      // With match account the subject names the account; its id is new,
      // so that no claimed id can collide with another account's.
      match === 'account' && provider !== null
        ? {
            ...accountFromClaims(claims, randomUUID(), provider),
            issuedUserId: subject,
          }
        : provider !== null && accountId !== null
          ? accountFromClaims(claims, accountId, provider)
          : null;
    const fields = {
      ...identityFromClaims(claims),
      ...(at && { lastLogin: at }),
      ...(match === 'externalId' && { externalId: subject }),
      ...(match === 'userName' && { userName: subject }),
      ...(match === 'verifiedEmail' && {
        emailAddress: subject,
        emailAddresses: [subject],
        emailAddressVerified: true,
      }),
    };
    await (match === 'identityId'
      ? this.signIns.createIdentity(tenantId, subject, fields, account)
      : this.signIns.createMatchedIdentity(
          tenantId,
          randomUUID(),
          fields,
          account,
          { match, subject, provider },
        ));
    return this.access.findIdentityCaller(tenantId, subject, accountId, issuer);
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
