import { command } from '../common/command-line/command';
import { printLine } from '../common/command-line/command-output';

/** The database's own command: its migrations, applied as it opens. */
export const MIGRATE_COMMANDS = [
  command({
    name: 'migrate',
    usage: '',
    summary: 'apply pending database migrations',
    help: 'The service applies them as it starts, too; this applies them without starting it.',
    options: {},
    example: [],
    migrates: true,
    check: () => ({}),
    handler: async (context) =>
      printLine(context, 'Migrations are up to date.'),
  }),
];
