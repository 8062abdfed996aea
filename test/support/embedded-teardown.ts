import { rmSync } from 'node:fs';
import { dirname } from 'node:path';

/** Removes what the embedded project's global setup wrote. */
export default function embeddedTeardown(): void {
  const file = process.env.TEST_PGLITE_TEMPLATE;
  if (file) rmSync(dirname(file), { recursive: true, force: true });
}
