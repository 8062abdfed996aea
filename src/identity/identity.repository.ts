import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';

export interface IdentityRecord {
  identityId: string;
  version: bigint;
  displayName: string | null;
  userName: string | null;
  emailAddress: string | null;
  emailAddresses: string[];
  emailAddressVerified: boolean;
  givenName: string | null;
  givenNames: string[];
  surname: string | null;
  surnames: string[];
  locality: string | null;
  localities: string[];
  mobilePhone: string | null;
  mobilePhoneVerified: boolean;
  privatePersonalIdentifier: string | null;
  lastLogin: Date | null;
  smallPictures: string[];
  mediumPictures: string[];
  largePictures: string[];
  userNamePasswordAccountUserName: string | null;
  oldIdentityIds: string[];
  properties: unknown;
  disabled: boolean;
  isArchived: boolean;
}

@Injectable()
export class IdentityRepository {
  constructor(private readonly database: Database) {}

  findIdentity(
    tenantId: string,
    identityId: string,
  ): Promise<IdentityRecord | null> {
    return this.database.prisma.identity.findUnique({
      where: { tenantId_identityId: { tenantId, identityId } },
      omit: { tenantId: true, createdAt: true, updatedAt: true },
    });
  }
}
