import {
  command,
  CommandContext,
  TENANT,
} from '../common/command-line/command';
import { printLine } from '../common/command-line/command-output';

/** Required as a command runs: help and wrong usage load no service (src/cli.ts). */
const identityService = ({ app }: CommandContext) =>
  app.get(
    (require('./identity.service') as typeof import('./identity.service'))
      .IdentityService,
  );

/** Identities: merging two that are one person. */
export const IDENTITY_COMMANDS = [
  command({
    name: 'merge',
    usage: '--tenant <t> --into <id> --from <id>',
    summary: 'merge an identity into another',
    help: "In one transaction: --from's accounts, friends and roles move to --into, its id joins --into's oldIdentityIds, and it is deleted with its tokens.",
    options: {
      tenant: TENANT,
      into: {
        type: 'string',
        value: '<id>',
        required: true,
        help: 'the identity that stays',
      },
      from: {
        type: 'string',
        value: '<id>',
        required: true,
        help: 'the identity that goes',
      },
    },
    example: ['--tenant', 'acme', '--into', 'ada', '--from', 'ada-old'],
    check: (given) => ({
      tenantId: given.need('tenant'),
      into: given.need('into'),
      from: given.need('from'),
    }),
    handler: async (context, { tenantId, into, from }) => {
      await identityService(context).mergeIdentities(tenantId, into, from);
      printLine(context, `Merged "${from}" into "${into}".`);
    },
  }),
];
