// Imported first by the service and the command line: on a Node.js that
// package.json's engines do not name, they stop with one line saying which
// version to get, before any module newer than that Node.js is loaded.
// (`npm start` and `npm run cli` check it before starting, too.)
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
require(join(__dirname, '..', '..', 'scripts', 'check-node.js'));
