import { count } from '../common/command-line/command-output';
import { Injectable, Logger } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AuthService } from '../auth/auth.service';
import { SCOPE_TENANT_ADMIN } from '../identity/principal';
import { TenantsService } from './tenants.service';

export const DEMO_TENANT_FILE = resolve(
  __dirname,
  '../../prisma/demo-tenant.json',
);

/** What the start-up banner shows: the demo tenant and tokens of it that work. */
export interface DemoBanner {
  tenantId: string;
  accessToken?: string;
  appToken?: string;
  /** An app token with tenant:admin: the console's sign-in. */
  consoleToken?: string;
}

interface DemoFile {
  tenant: { id: string };
  tokens: { token: string; type: 'access' | 'app'; scopes?: string[] }[];
}

const readDemoFile = () =>
  JSON.parse(readFileSync(DEMO_TENANT_FILE, 'utf8')) as DemoFile;

@Injectable()
export class DemoSeeder {
  private readonly logger = new Logger('Demo');

  constructor(
    private readonly tenants: TenantsService,
    private readonly auth: AuthService,
  ) {}

  /** Imports the demo tenant when the database holds no tenant at all. */
  async seedIfEmpty(): Promise<boolean> {
    if (await this.tenants.hasTenants()) return false;
    const summary = await this.tenants.importTenant(readDemoFile());
    this.logger.log(
      `Imported the demo tenant "${summary.tenantId}" (${count(summary.identities, 'identity', 'identities')})`,
    );
    return true;
  }

  /**
   * The demo tenant with the first access token and the first app token of
   * its file that still authenticate (a token may have been revoked, its
   * identity deleted or disabled); undefined when the tenant is gone.
   */
  async banner(): Promise<DemoBanner | undefined> {
    const file = readDemoFile();
    const tenantId = file.tenant.id;
    if (!(await this.tenants.hasTenant(tenantId))) return undefined;
    const working = async (tokens: DemoFile['tokens']) => {
      for (const { token } of tokens)
        if (
          await this.auth.authenticate(tenantId, token, false).then(
            () => true,
            () => false,
          )
        )
          return token;
      return undefined;
    };
    const apps = file.tokens.filter((t) => t.type === 'app');
    return {
      tenantId,
      accessToken: await working(
        file.tokens.filter((t) => t.type === 'access'),
      ),
      appToken: await working(
        apps.filter((t) => !t.scopes?.includes(SCOPE_TENANT_ADMIN)),
      ),
      consoleToken: await working(
        apps.filter((t) => t.scopes?.includes(SCOPE_TENANT_ADMIN)),
      ),
    };
  }
}
