import { PGlite } from '@electric-sql/pglite';
import { readFileSync } from 'node:fs';

let template: Blob | undefined;
const fromTemplate = new Set<string>();

function templateData(): Blob {
  if (!template) {
    const file = process.env.TEST_PGLITE_TEMPLATE;
    if (!file)
      throw new Error(
        'No PGlite template: run the embedded tests through jest.config.js, whose global setup makes it.',
      );
    template = new Blob([readFileSync(file)]);
  }
  return template;
}

/**
 * Makes the in-memory PGlite named `dataDir` start as a copy of the migrated
 * template of the global setup: loading it takes a fraction of what initdb
 * takes. The service opens it through `PGlite.create` as always and runs
 * its migrator on it, which finds every migration applied.
 */
export function startFromTemplate(dataDir: string): void {
  templateData();
  if (fromTemplate.size === 0) {
    const create = PGlite.create.bind(PGlite);
    jest.spyOn(PGlite, 'create').mockImplementation(((
      dataDirOrOptions: unknown,
      options?: object,
    ) =>
      typeof dataDirOrOptions === 'string' && fromTemplate.has(dataDirOrOptions)
        ? create({
            ...options,
            dataDir: dataDirOrOptions,
            loadDataDir: templateData(),
          })
        : create(dataDirOrOptions as string, options)) as never);
  }
  fromTemplate.add(dataDir);
}

/** Writes a copy of the migrated template into the data directory `dir`. */
export async function copyTemplateTo(dir: string): Promise<void> {
  const pglite = await PGlite.create(dir, { loadDataDir: templateData() });
  await pglite.close();
}
