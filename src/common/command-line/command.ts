import type { INestApplicationContext } from '@nestjs/common';

/** How the command line is started, in every usage line and hint. */
export const PROGRAM = 'npm run cli --';

/** The actor of every change the command line makes, in the audit log. */
export const CLI = 'cli';

/** Wrong usage of the command line: exit code 2, said before anything is opened. */
export class UsageError extends Error {}

/** A well-formed command that cannot be done (an unknown tenant or token): exit code 1. */
export class Refused extends Error {}

/** An option of a command: its value's name (`<t>`) shows in the help. */
export type OptionSpec =
  | {
      type: 'string';
      value: string;
      help: string;
      required?: boolean;
      multiple?: boolean;
    }
  | { type: 'boolean'; help: string };

/** An argument of a command, in its order; `help` completes "Missing …" too. */
export interface ArgSpec {
  name: string;
  help: string;
}

/**
 * --tenant: every command that takes it works on an existing tenant, which
 * the command line checks before the command runs.
 */
export const TENANT: OptionSpec = {
  type: 'string',
  value: '<t>',
  required: true,
  help: 'the tenant (one that exists)',
};

/** --json's value: a JSON object, in single quotes on a shell. */
export const jsonOption = (help: string, required = false): OptionSpec => ({
  type: 'string',
  value: '<object>',
  help,
  required,
});

/** The options and arguments a command line gave, read and checked. */
export class Given {
  constructor(
    readonly command: string,
    private readonly values: Record<string, unknown>,
    private readonly args: Record<string, string | undefined>,
  ) {}

  string(option: string): string | undefined {
    const value = this.values[option];
    return typeof value === 'string' ? value : undefined;
  }

  strings(option: string): string[] | undefined {
    const value = this.values[option];
    return Array.isArray(value) ? (value as string[]) : undefined;
  }

  flag(option: string): boolean {
    return this.values[option] === true;
  }

  /** A required option's value (the usage check has seen it is there). */
  need(option: string): string {
    const value = this.string(option);
    if (!value) throw new UsageError(`Missing --${option}.`);
    return value;
  }

  /** An argument's value, by its name. */
  arg(name: string): string {
    return this.args[name] ?? '';
  }

  /** --json's object, or undefined when it is not given. */
  json(): Record<string, unknown> | undefined {
    const text = this.string('json');
    if (text === undefined) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`--json is not JSON: ${(error as Error).message}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new UsageError('--json takes a JSON object.');
    return value as Record<string, unknown>;
  }
}

/** Where a command runs: the services, and the streams it writes to. */
export interface CommandContext {
  app: INestApplicationContext;
  /** Writes to standard output. */
  write(text: string): void;
  /** Writes a line to standard error: what goes beside the result. */
  note(line: string): void;
  stdin: AsyncIterable<Buffer | string>;
}

/**
 * One command of the command line. Its help is made of `usage`, `summary`,
 * `help`, its options and its example; `check` reads the command line into
 * the handler's input and refuses wrong usage before anything is opened.
 */
export interface Command<Input = unknown> {
  /** The words that name it: `token create`. */
  name: string;
  /** What follows its name on a usage line. */
  usage: string;
  /** What it does, in a few words (the list of commands shows it). */
  summary: string;
  /** More of what it does, for its own help. */
  help?: string;
  options: Readonly<Record<string, OptionSpec>>;
  args?: readonly ArgSpec[];
  /** What follows its name in an example that passes its usage check. */
  example: readonly string[];
  /** Its database is migrated as it opens. */
  migrates?: boolean;
  check(given: Given): Input;
  /** Does it; an exit code other than 0 when it did only part of it. */
  handler(context: CommandContext, input: Input): Promise<number | void>;
}

/** A command, its input's type inferred from `check`. */
export const command = <Input>(definition: Command<Input>): Command<Input> =>
  definition;
