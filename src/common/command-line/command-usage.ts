import { parseArgs, ParseArgsOptionsConfig } from 'node:util';
import { Command, Given, PROGRAM, UsageError } from './command';
import { commandHelp, commandList, groupHelp } from './command-help';

/** A command line whose usage passed: its command, with the input its check made. */
export interface CommandToRun {
  command: Command;
  given: Given;
  input: unknown;
}

/** What a command line asks for: a help text, or a command to run. */
export type CommandLine = { help: string } | CommandToRun;

/**
 * Reads a command line against the commands: the help it asks for, or its
 * command with the input that command's check made of it. Every mistake of
 * usage is a UsageError saying what is wrong and where the help is.
 */
export function readCommandLine(
  commands: readonly Command[],
  argv: readonly string[],
): CommandLine {
  const [first, ...rest] = argv;
  if (first === undefined) throw new UsageError(commandList(commands));
  if (first === 'help' || asksHelp([first]))
    return { help: helpFor(commands, rest) };
  if (first.startsWith('-'))
    throw mistake(`Name the command first, then its options ("${first}").`);
  const group = commands.filter((c) => c.name.split(' ')[0] === first);
  const alone = group.find((c) => c.name === first);
  if (alone) return read(alone, rest);
  if (!group.length) throw mistake(`Unknown command "${first}".`);
  const [action, ...args] = rest;
  if (action === undefined || action.startsWith('-')) {
    if (asksHelp(rest)) return { help: groupHelp(first, group) };
    const actions = group.map((c) => c.name.slice(first.length + 1));
    throw mistake(`"${first}" takes one of: ${actions.join(', ')}.`, first);
  }
  const found = group.find((c) => c.name === `${first} ${action}`);
  if (!found) throw mistake(`Unknown command "${first} ${action}".`, first);
  return read(found, args);
}

/** `help`, `help <command>` and `help <group>`. */
function helpFor(commands: readonly Command[], words: string[]): string {
  const name = words.filter((word) => !word.startsWith('-')).join(' ');
  if (!name) return commandList(commands);
  const found = commands.find((c) => c.name === name);
  if (found) return commandHelp(found);
  const group = commands.filter((c) => c.name.split(' ')[0] === name);
  if (group.length) return groupHelp(name, group);
  throw mistake(`Unknown command "${name}".`);
}

function read(command: Command, args: string[]): CommandLine {
  if (asksHelp(args)) return { help: commandHelp(command) };
  try {
    const given = checkUsage(command, args);
    return { command, given, input: command.check(given) };
  } catch (error) {
    if (error instanceof UsageError) throw mistake(error.message, command.name);
    throw error;
  }
}

/** The options and arguments, each known, each required one there. */
function checkUsage(command: Command, args: string[]): Given {
  const options: ParseArgsOptionsConfig = {};
  for (const [name, spec] of Object.entries(command.options))
    options[name] =
      spec.type === 'string'
        ? { type: 'string', multiple: spec.multiple === true }
        : { type: 'boolean' };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const specs = command.args ?? [];
  if (positionals.length > specs.length)
    throw new UsageError(`Unexpected argument "${positionals[specs.length]}".`);
  for (const [name, spec] of Object.entries(command.options))
    if (spec.type === 'string' && spec.required && !values[name])
      throw new UsageError(`Missing --${name}.`);
  specs.forEach((spec, i) => {
    if (!positionals[i]) throw new UsageError(`Missing ${spec.help}.`);
  });
  return new Given(
    command.name,
    values,
    Object.fromEntries(specs.map((spec, i) => [spec.name, positionals[i]])),
  );
}

/** --help or -h before any `--`. */
function asksHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some(
    (arg) => arg === '--help' || arg === '-h',
  );
}

/** A mistake, and the help that shows the right usage. */
function mistake(message: string, about?: string): UsageError {
  const help = about ? `${about} --help` : 'help';
  return new UsageError(`${message}\nHelp: ${PROGRAM} ${help}`);
}
