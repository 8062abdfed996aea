/** A deterministic tenant of `count` identities in the import format (generated-tenant.js). */
export function generatedTenant(
  id: string,
  count: number,
): {
  tenant: { id: string; name: string; adminRoles: string[] };
  accountProviders: Record<string, unknown>[];
  identities: Record<string, unknown>[];
  tokens: { token: string; type: string; appId: string; scopes: string[] }[];
};
