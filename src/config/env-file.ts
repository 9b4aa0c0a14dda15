import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';

/** A `.env` file that exists but cannot be used: the boot stops with this message. */
export class EnvFileError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`Cannot use ${file}: ${reason}`);
    this.name = 'EnvFileError';
  }
}

/** What `loadEnvFile` did: the names it set, and those it left because the environment had them. */
export interface EnvFileResult {
  readonly file: string;
  readonly found: boolean;
  readonly applied: readonly string[];
  readonly alreadySet: readonly string[];
}

const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/;
const QUOTES = new Set(['"', "'", '`']);

/**
 * Checks the file line by line before Node's parser sees it. `util.parseEnv` (like
 * `process.loadEnvFile` and `--env-file`) never fails: a line without `=` is glued to the next one
 * and becomes a variable named `not a line\nPORT`, an unclosed quote swallows the lines after it.
 * A typo in a `.env` would then silently drop settings, so anything other than `NAME=value`, a
 * `# comment` or a blank line stops the boot naming the line. Returns the names in file order.
 */
export function checkEnvFileSyntax(content: string): string[] {
  const lines = content.split(/\r?\n/);
  const names: string[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i];
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const match = ASSIGNMENT.exec(line);
    if (!match) {
      throw new Error(`line ${i + 1}: expected NAME=value, a # comment or a blank line`);
    }
    names.push(match[1]);
    const value = match[2].trimStart();
    const quote = value[0];
    // A quoted value may span lines (Node's parser allows it); it must be closed somewhere.
    if (quote !== undefined && QUOTES.has(quote) && !value.slice(1).includes(quote)) {
      const close = lines.findIndex((l, j) => j > i && l.includes(quote));
      if (close < 0)
        throw new Error(`line ${i + 1}: the ${quote} quote opened for ${match[1]} is never closed`);
      i = close;
    }
  }
  return names;
}

/**
 * Reads `file` (default `./.env`) into `env` (default `process.env`) when it exists. Variables
 * already set in `env` win over the file, as with `node --env-file`. The values are parsed by
 * Node's own parser (`util.parseEnv`, the one behind `process.loadEnvFile`; Node 20.12+), after a
 * strict syntax check. A missing file is not an error; an unreadable or malformed one throws
 * `EnvFileError`.
 */
export function loadEnvFile(
  file: string = path.resolve('.env'),
  env: Record<string, string | undefined> = process.env,
): EnvFileResult {
  let content: string;
  try {
    content = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { file, found: false, applied: [], alreadySet: [] };
    throw new EnvFileError(file, `cannot be read (${code ?? (err as Error).message})`);
  }
  // A byte order mark (some editors on Windows write one) would become part of the first name.
  content = content.replace(/^\uFEFF/, '');
  let names: string[];
  try {
    names = checkEnvFileSyntax(content);
  } catch (err) {
    throw new EnvFileError(file, (err as Error).message);
  }
  const values = parseEnv(content);
  // The check and Node's parser must agree on the names; a difference means a line was read in a
  // way the check did not foresee: refuse rather than guess.
  const unexpected = Object.keys(values).filter((name) => !names.includes(name));
  if (unexpected.length > 0) {
    throw new EnvFileError(
      file,
      `unexpected variable names ${JSON.stringify(unexpected)} (check the quoting)`,
    );
  }
  const applied: string[] = [];
  const alreadySet: string[] = [];
  // In file order (parseEnv's object is sorted by name); a name given twice counts once, last wins.
  for (const name of new Set(names)) {
    const value = values[name];
    if (value === undefined) continue;
    if (env[name] !== undefined) {
      alreadySet.push(name);
      continue;
    }
    env[name] = value;
    applied.push(name);
  }
  return { file, found: true, applied, alreadySet };
}
