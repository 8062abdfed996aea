import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

/** The README, then every document in docs/ by name: the order a reader meets their examples in. */
export function documents(): string[] {
  const docs = join(ROOT, 'docs');
  return [
    join(ROOT, 'README.md'),
    ...readdirSync(docs)
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => join(docs, name)),
  ];
}

/**
 * The fenced block that follows `<!-- example: <name> -->` in the README or
 * a document of docs/, so that a test can check what the documents promise
 * wherever they are moved. Exactly one such block must exist.
 */
export function documentedExample(name: string): string {
  const marker = `<!-- example: ${name} -->`;
  const found = documents().flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    const at = text.indexOf(marker);
    if (at < 0) return [];
    const block = /```\w*\n([\s\S]*?)\n```/.exec(
      text.slice(at + marker.length),
    );
    return block ? [block[1]] : [];
  });
  if (found.length !== 1)
    throw new Error(`expected one example "${name}", found ${found.length}`);
  return found[0];
}

/** A fenced shell block of a document: where it starts and what it says. */
export interface ShellBlock {
  /** `README.md:93`: the document, from the repository, and the fence's line. */
  at: string;
  text: string;
}

/** The fenced shell blocks (```sh, ```bash, ```console, ```shell) of `file`, in order. */
export function shellBlocks(file: string): ShellBlock[] {
  const text = readFileSync(file, 'utf8');
  const name = relative(ROOT, file);
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)]
    .filter(([, lang]) => ['sh', 'bash', 'console', 'shell'].includes(lang))
    .map((block) => ({
      at: `${name}:${text.slice(0, block.index).split('\n').length}`,
      text: block[2].replace(/\n$/, ''),
    }));
}
