import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writePgliteTemplate } from './templates';

/**
 * Global setup of the embedded e2e project: a migrated PGlite data
 * directory in a file that the test files (which share nothing else with
 * this process) find through the environment.
 */
export default async function embeddedSetup(): Promise<void> {
  const file = join(
    mkdtempSync(join(tmpdir(), 'identity-pglite-')),
    'template.tar',
  );
  await writePgliteTemplate(file);
  process.env.TEST_PGLITE_TEMPLATE = file;
}
