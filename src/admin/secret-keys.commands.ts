import { command, CommandContext } from '../common/command-line/command';
import { count, printLine } from '../common/command-line/command-output';
import { NoSecretKey } from '../common/errors';

/** Required as a command runs: help and wrong usage load no service (src/cli.ts). */
const secretBox = ({ app }: CommandContext) =>
  app.get(
    (
      require('../common/secrets/secret-box') as typeof import('../common/secrets/secret-box')
    ).SecretBox,
  );
const providersService = ({ app }: CommandContext) =>
  app.get(
    (
      require('./account-providers.service') as typeof import('./account-providers.service')
    ).AccountProvidersService,
  );

/** The operator's keys over the client secrets that tenants store. */
export const SECRET_KEY_COMMANDS = [
  command({
    name: 'secret-keys rotate',
    usage: '',
    summary: 'seal every stored client secret under the first key',
    help: "The first key is SECRET_KEYS's (or its file's); on the embedded database, its own key file gets a new first key before. Says how many it sealed anew, and which secrets no key opens (exit code 1 then: set them again).",
    options: {},
    example: [],
    check: () => ({}),
    handler: async (context) => {
      const box = secretBox(context);
      if (box.currentKeyId === undefined) throw new NoSecretKey();
      const { added } = box.addKey();
      const { resealed, unreadable } =
        await providersService(context).resealSecrets();
      const key = `key "${box.currentKeyId}"`;
      printLine(
        context,
        `${added ? `Added ${key} to the embedded database's key file. ` : ''}` +
          `${count(resealed, 'client secret', 'client secrets')} sealed anew under ${key}.` +
          (unreadable.length
            ? ` ${count(unreadable.length, 'secret', 'secrets')} no key of this command opens (${unreadable.slice(0, 10).join(', ')}): set them again.`
            : ' Keys other than it now seal nothing.'),
      );
      return unreadable.length ? 1 : 0;
    },
  }),
];
