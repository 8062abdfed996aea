import type { DMMF } from '@prisma/client/runtime/client';
import { get_dmmf } from '@prisma/prisma-schema-wasm';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const SCHEMA_PATH = resolve(__dirname, '../../prisma/schema.prisma');

/**
 * The data model of a Prisma schema as Prisma's own parser reads it (the
 * DMMF `prisma generate` works from): fields with their database names,
 * lists, optionality and native types, which the generated client keeps
 * only in part.
 */
export function readDatamodel(
  schema = readFileSync(SCHEMA_PATH, 'utf8'),
): DMMF.Datamodel {
  const params = {
    prismaSchema: [['schema.prisma', schema]],
    noColor: true,
  };
  try {
    return JSON.parse(get_dmmf(JSON.stringify(params))).datamodel;
  } catch (error) {
    throw new Error(`Prisma rejects the schema: ${diagnostics(error)}`);
  }
}

/** The parser throws its diagnostics as JSON (`{ error_code, message }`). */
function diagnostics(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  try {
    return (JSON.parse(text) as { message: string }).message;
  } catch {
    return text;
  }
}
