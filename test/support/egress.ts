import type { AppConfig } from '../../src/config/app-config';

/**
 * Lets `tenantId` reach loopback and private networks, as an operator's
 * EGRESS_PRIVATE_NETWORK_TENANTS does: the tests' issuers, providers and
 * webhook receivers all run on loopback. The service's default stays that
 * no tenant may.
 */
export function allowPrivateNetworks(config: AppConfig, tenantId: string) {
  for (const list of new Set([
    config.egressPrivateNetworkTenants,
    config.webhooks.privateNetworkTenants,
  ]))
    if (!list.includes(tenantId)) list.push(tenantId);
}

/**
 * The tenants of the tests that run the built server and whose issuers,
 * providers or receivers are on loopback, for EGRESS_PRIVATE_NETWORK_TENANTS
 * (`demo` as `npm start` lists it).
 */
export const BUILT_SERVER_PRIVATE_NETWORK_TENANTS = 'demo,fleet,chrome';
