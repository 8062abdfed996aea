import { Global, Module } from '@nestjs/common';
import { SecretBox } from './secret-box';

/** The operator's keys for the secrets tenants store, one box for the service or the command line. */
@Global()
@Module({ providers: [SecretBox], exports: [SecretBox] })
export class SecretsModule {}
