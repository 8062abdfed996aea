import { fixture } from './test-app';

/** The example tenant of the import format, as the project's own test data. */
export const example = () => fixture('example-tenant.json');

export const API = '/example/api/identity/v1';

export const TOKENS = {
  ada: 'example-ada-access-token-0001',
  charles: 'example-charles-access-token-0001',
  mary: 'example-mary-access-token-0001',
  grace: 'example-grace-access-token-0001',
  expired: 'example-expired-access-token-0001',
  crm: 'example-crm-app-token-0001',
  janitor: 'example-janitor-app-token-0001',
  bare: 'example-bare-app-token-0001',
} as const;

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
