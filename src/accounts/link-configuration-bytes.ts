import type { Configuration } from 'openid-client';
import { ENTRY_BYTES, stringBytes, valueBytes } from '../common/cache-budget';

// What the link client's cache of provider configurations counts, apart
// from the client itself: openid-client is an ES module that the unit tests
// on Node.js 22 cannot require, and its types are all this needs.

/**
 * The bytes of the configurations kept: a discovery document may weigh up
 * to a megabyte (docs/operations.md, Memory).
 */
export const CONFIGURATIONS_BYTES = 16 * 1024 * 1024;
/** What a configuration weighs beside its metadata: its object, client and closures. */
const CONFIGURATION_BYTES = 4096;
/** A configuration's bytes in the cache: measured once, when it is made. */
export const configurationBytes = (configuration: Configuration, key: string) =>
  ENTRY_BYTES +
  stringBytes(key) +
  CONFIGURATION_BYTES +
  valueBytes(configuration.serverMetadata());
