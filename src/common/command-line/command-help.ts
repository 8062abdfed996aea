import { Command, OptionSpec, PROGRAM } from './command';

const WIDTH = 80;
/** Where a command's summary starts in a list of commands. */
const SUMMARY_COLUMN = 39;

/** The usage of every command, made from the commands themselves. */
export function commandList(commands: readonly Command[]): string {
  return [
    `Usage: ${PROGRAM} <command> [<arguments>] [<options>]`,
    '',
    ...listed(commands),
    '',
    `More on a command: ${PROGRAM} help <command> (or <command> --help).`,
    'Exit codes: 0 done; 1 not done, the reason on standard error; 2 wrong usage.',
    '',
  ].join('\n');
}

/** The usage of the commands of one group (`provider`). */
export function groupHelp(group: string, commands: readonly Command[]): string {
  return [
    `Usage: ${PROGRAM} ${group} <action> [<arguments>] [<options>]`,
    '',
    ...listed(commands),
    '',
    `An action's own help: ${PROGRAM} ${group} <action> --help.`,
    '',
  ].join('\n');
}

/** One command's help: its usage line, what it does, its options, an example. */
export function commandHelp(command: Command): string {
  const args = (command.args ?? []).map(
    (arg) => [`<${arg.name}>`, arg.help] as const,
  );
  const options = Object.entries(command.options).map(
    ([name, spec]) => [optionName(name, spec), spec.help] as const,
  );
  return [
    ...wrap(units(`Usage: ${PROGRAM} ${synopsis(command)}`), 4, 0),
    '',
    ...wrap(words(`${sentence(command.summary)} ${command.help ?? ''}`), 0),
    ...(args.length ? ['', 'Arguments:', ...table(args)] : []),
    '',
    'Options:',
    ...table([...options, ['--help', 'print this help']]),
    '',
    'Example:',
    `  ${PROGRAM} ${command.name} ${command.example.map(quoted).join(' ')}`.trimEnd(),
    '',
  ].join('\n');
}

const synopsis = (command: Command) =>
  command.usage ? `${command.name} ${command.usage}` : command.name;

function listed(commands: readonly Command[]): string[] {
  return commands.flatMap((command) => {
    const usage = wrap(units(synopsis(command)), command.name.length + 3, 2);
    const summary = wrap(words(command.summary), SUMMARY_COLUMN);
    const last = usage[usage.length - 1];
    if (usage.length > 1 || last.length >= SUMMARY_COLUMN - 1)
      return [...usage, ...summary];
    const first = last.padEnd(SUMMARY_COLUMN) + summary[0].trimStart();
    return [...usage.slice(0, -1), first, ...summary.slice(1)];
  });
}

const optionName = (name: string, spec: OptionSpec) =>
  spec.type === 'string'
    ? `--${name} ${spec.value}${spec.multiple ? ' ...' : ''}`
    : `--${name}`;

/** Two columns: names, then what they are. */
function table(rows: readonly (readonly [string, string])[]): string[] {
  const column = Math.max(...rows.map(([name]) => name.length)) + 4;
  return rows.flatMap(([name, help]) => {
    const lines = wrap(words(help), column);
    return [
      `  ${name}`.padEnd(column) + lines[0].trimStart(),
      ...lines.slice(1),
    ];
  });
}

/** A usage line's parts: words, with a bracketed group kept whole. */
function units(text: string): string[] {
  const found: string[] = [];
  let depth = 0;
  let unit = '';
  for (const char of text) {
    if (char === ' ' && depth === 0) {
      found.push(unit);
      unit = '';
      continue;
    }
    if ('[('.includes(char)) depth++;
    if ('])'.includes(char)) depth--;
    unit += char;
  }
  return [...found, unit];
}

/** Words as lines of at most WIDTH, each after `indent` spaces (the first after `first`). */
function wrap(words: string[], indent: number, first = indent): string[] {
  const lines: string[] = [];
  let line = ' '.repeat(first);
  for (const word of words) {
    const blank = line.trim() === '';
    if (!blank && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = ' '.repeat(indent) + word;
    } else line += blank ? word : ` ${word}`;
  }
  return [...lines, line];
}

const words = (text: string) => text.trim().split(/\s+/);

const sentence = (text: string) =>
  `${text[0].toUpperCase()}${text.slice(1)}${text.endsWith('.') ? '' : '.'}`;

/** An argument as a shell takes it. */
const quoted = (arg: string) =>
  /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
