// The benchmark's generator (bench/generated-tenant.js), so that the large
// import the tests run is the one the import benchmark measures.
export { generatedTenant } from '../../bench/generated-tenant';
