import {
  command,
  CommandContext,
  TENANT,
  UsageError,
} from '../common/command-line/command';
import { printLine } from '../common/command-line/command-output';

const FOLLOW_POLL_MS = 500;

/** Required as a command runs: help and wrong usage load no service (src/cli.ts). */
const eventsService = ({ app }: CommandContext) =>
  app.get(
    (require('./events.service') as typeof import('./events.service'))
      .EventsService,
  );

/** The change log, read in order. */
export const EVENT_COMMANDS = [
  command({
    name: 'events',
    usage: '--tenant <t> [--after <id>] [--follow]',
    summary: 'print the change log as JSON lines',
    help: 'In order of their ids; --follow keeps waiting for new events until stopped (Ctrl-C).',
    options: {
      tenant: TENANT,
      after: {
        type: 'string',
        value: '<id>',
        help: 'the events after this one',
      },
      follow: { type: 'boolean', help: 'keep printing new events' },
    },
    example: ['--tenant', 'acme', '--after', '12', '--follow'],
    check: (given) => {
      const after = given.string('after') ?? '0';
      if (!/^\d{1,18}$/.test(after))
        throw new UsageError('--after takes an event id.');
      return {
        tenantId: given.need('tenant'),
        after: BigInt(after),
        follow: given.flag('follow'),
      };
    },
    handler: (context, input) => printEvents(context, input),
  }),
];

/** Prints events in id order; with `follow`, keeps polling until stopped. */
async function printEvents(
  context: CommandContext,
  {
    tenantId,
    after,
    follow,
  }: { tenantId: string; after: bigint; follow: boolean },
): Promise<void> {
  const events = eventsService(context);
  let stopped = false;
  const stop = () => (stopped = true);
  if (follow) process.once('SIGINT', stop).once('SIGTERM', stop);
  try {
    for (;;) {
      const batch = await events.listEvents(tenantId, after);
      for (const event of batch) printLine(context, JSON.stringify(event));
      if (batch.length) after = BigInt(batch[batch.length - 1].id);
      if (batch.length === 0 && (!follow || stopped)) return;
      if (batch.length === 0)
        await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
    }
  } finally {
    process.off('SIGINT', stop).off('SIGTERM', stop);
  }
}
