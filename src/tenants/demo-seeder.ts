import { Injectable, Logger } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { TenantsService } from './tenants.service';

export const DEMO_TENANT_FILE = resolve(
  __dirname,
  '../../prisma/demo-tenant.json',
);

/** The demo tenant's fixed development tokens, as written in its file. */
export interface DemoTokens {
  tenantId: string;
  accessToken: string;
  appToken: string;
}

@Injectable()
export class DemoSeeder {
  private readonly logger = new Logger('Demo');

  constructor(private readonly tenants: TenantsService) {}

  /** Imports the demo tenant when the database holds no tenant at all. */
  async seedIfEmpty(): Promise<boolean> {
    if (await this.tenants.hasTenants()) return false;
    const summary = await this.tenants.importTenant(
      JSON.parse(readFileSync(DEMO_TENANT_FILE, 'utf8')),
    );
    this.logger.log(
      `Imported the demo tenant "${summary.tenantId}" (${summary.identities} identities)`,
    );
    return true;
  }

  async isDemoLoaded(): Promise<boolean> {
    return this.tenants.hasTenant(this.demoTokens().tenantId);
  }

  demoTokens(): DemoTokens {
    const file = JSON.parse(readFileSync(DEMO_TENANT_FILE, 'utf8')) as {
      tenant: { id: string };
      tokens: { token: string; type: string; scopes?: string[] }[];
    };
    return {
      tenantId: file.tenant.id,
      accessToken: file.tokens.find((t) => t.type === 'access')!.token,
      appToken: file.tokens.find((t) => t.type === 'app')!.token,
    };
  }
}
