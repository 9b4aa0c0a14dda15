import { MAX_COMMAND_CHARS } from '../../schemas/http/studio';
/**
 * The strict grammar of Studio commands (docs/studio.md). Pure: a command string becomes a
 * `StudioCommand` or a `StudioSyntaxError` (answered as `kind: 'error'`).
 *
 * Tokens are separated by spaces or tabs. Keywords are lower case. The payload after `--json`
 * (a JSON object) or after `--code` (source code) is taken verbatim to the end of the command;
 * anywhere else the shell metacharacters `; | & $ \` > < ( ) { } \` and line breaks are refused.
 */

import { MAX_JSON_DEPTH, jsonTextTooDeep } from '../../schemas/json-depth';

/** Longest command accepted (the code payload of `advanced run` is at most 100 KB). */
export { MAX_COMMAND_CHARS };

export type StudioCommand =
  | { kind: 'help' }
  | { kind: 'status' }
  | { kind: 'tools.list' }
  | { kind: 'mcp.list' }
  | { kind: 'skills.search'; query: string }
  | { kind: 'tool.run'; tool: string; input: Record<string, unknown> }
  | { kind: 'mcp.call'; server: string; tool: string; input: Record<string, unknown> }
  | { kind: 'skills.install'; slug: string }
  | { kind: 'skills.use'; slug: string; capability: string; input: Record<string, unknown> }
  | { kind: 'advanced.run'; language: 'javascript'; code: string }
  | { kind: 'apps.list' }
  | { kind: 'apps.search'; query: string }
  | { kind: 'apps.install'; slug: string }
  | { kind: 'apps.open'; slug: string; target: 'web' | 'android' | 'ios' };

export interface ParsedCommand {
  readonly command: StudioCommand;
  /** The command as one canonical string (single spaces, JSON re-serialised): what a confirmToken is bound to. */
  readonly normalized: string;
}

export class StudioSyntaxError extends Error {
  override readonly name = 'StudioSyntaxError';
}

/** Shell metacharacters refused outside the payload (and line breaks). */
const METACHARACTERS = /[;|&$`><(){}\\\r\n]/;
const FLAG = /(^|[ \t])--(json|code)(?=\s|$)/;
const TOOL_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$/;
const SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const CONNECTOR_TOOL = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

/** The commands, for `help` and docs/studio.md. */
export const STUDIO_COMMANDS: ReadonlyArray<{ usage: string; does: string; mutating: string }> = [
  { usage: 'help', does: 'this list', mutating: 'no' },
  { usage: 'status', does: 'counts of tools and connectors, advanced mode', mutating: 'no' },
  { usage: 'tools list', does: 'the tools you may call (built-in and connector tools)', mutating: 'no' },
  { usage: 'mcp list', does: 'your MCP connectors', mutating: 'no' },
  {
    usage: 'skills search <query>',
    does: 'searches the skill store (name, slug, description)',
    mutating: 'no',
  },
  {
    usage: 'tool run <name> [--json {…}]',
    does: 'calls a tool (platform.<x>, <x> or mcp.<server>.<tool>)',
    mutating: 'when the tool is',
  },
  {
    usage: 'mcp call <server> <tool> [--json {…}]',
    does: 'calls a connector tool',
    mutating: 'unless the tool is read-only',
  },
  {
    usage: 'skills install <slug>',
    does: 'installs a skill with its dependencies, approving the permissions it needs',
    mutating: 'yes',
  },
  {
    usage: 'skills use <slug> <cap> [--json {…}]',
    does: 'runs a capability of an installed skill (a SKILL_EXECUTION)',
    mutating: 'when the capability is',
  },
  { usage: 'apps list', does: 'the app store, most installed first, with yours marked', mutating: 'no' },
  { usage: 'apps search <query>', does: 'searches the app store (name, slug, description)', mutating: 'no' },
  {
    usage: 'apps install <slug>',
    does: 'installs an app, approving the permissions it needs (an APP_INSTALL execution)',
    mutating: 'yes',
  },
  {
    usage: 'apps open <slug> [web|android|ios]',
    does: 'checks readiness and answers the URL to open',
    mutating: 'no',
  },
  {
    usage: 'advanced run javascript --code <src>',
    does: 'runs code in the sandbox (proc_execute); needs advancedMode: true',
    mutating: 'yes',
  },
];

function parseJsonObject(payload: string): Record<string, unknown> {
  // Tools and validators walk the value recursively: a deep one would overflow the stack.
  if (jsonTextTooDeep(payload)) {
    throw new StudioSyntaxError(`The payload after --json is nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    throw new StudioSyntaxError('The payload after --json is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new StudioSyntaxError('The payload after --json must be a JSON object');
  }
  return value as Record<string, unknown>;
}

function expectName(value: string | undefined, pattern: RegExp, what: string): string {
  if (value === undefined) throw new StudioSyntaxError(`Missing ${what}`);
  if (!pattern.test(value)) throw new StudioSyntaxError(`Invalid ${what}: ${value.slice(0, 100)}`);
  return value;
}

/** Parses one command (see the grammar table in docs/studio.md). Throws StudioSyntaxError. */
export function parseStudioCommand(raw: string): ParsedCommand {
  if (raw.length > MAX_COMMAND_CHARS) {
    throw new StudioSyntaxError(`The command is longer than ${MAX_COMMAND_CHARS} characters`);
  }
  const text = raw.replace(/^[ \t]+/, '');
  const match = FLAG.exec(text);
  const head = match ? text.slice(0, match.index) : text;
  const flag = match ? (match[2] as 'json' | 'code') : undefined;
  const payload = match ? text.slice(match.index + match[0].length).replace(/^\s+/, '') : undefined;

  const bad = METACHARACTERS.exec(head);
  if (bad) {
    const shown = bad[0] === '\n' ? '\\n' : bad[0] === '\r' ? '\\r' : bad[0];
    throw new StudioSyntaxError(
      `Shell metacharacter "${shown}" is not allowed outside the --json or --code payload`,
    );
  }
  const tokens = head.split(/[ \t]+/).filter((t) => t.length > 0);
  if (tokens.length === 0) throw new StudioSyntaxError('Empty command: type help');
  if (flag && !payload) throw new StudioSyntaxError(`Missing payload after --${flag}`);

  const json = (): { input: Record<string, unknown>; text: string } => {
    if (flag === 'code') throw new StudioSyntaxError('This command takes --json, not --code');
    const input = flag ? parseJsonObject(payload!) : {};
    return { input, text: flag ? ` --json ${JSON.stringify(input)}` : '' };
  };
  const noPayload = () => {
    if (flag) throw new StudioSyntaxError(`This command takes no --${flag} payload`);
  };
  const arity = (n: number) => {
    if (tokens.length !== n) {
      throw new StudioSyntaxError(
        tokens.length > n ? `Unexpected argument: ${tokens[n].slice(0, 100)}` : 'Missing argument: type help',
      );
    }
  };

  const [first, second] = tokens;
  const verb = tokens.length > 1 ? `${first} ${second}` : first;
  switch (verb) {
    case 'help':
    case 'status':
      noPayload();
      return { command: { kind: verb }, normalized: verb };
    case 'tools list':
      noPayload();
      arity(2);
      return { command: { kind: 'tools.list' }, normalized: verb };
    case 'mcp list':
      noPayload();
      arity(2);
      return { command: { kind: 'mcp.list' }, normalized: verb };
    case 'skills search': {
      noPayload();
      if (tokens.length < 3) throw new StudioSyntaxError('Missing search query');
      const query = tokens.slice(2).join(' ');
      return { command: { kind: 'skills.search', query }, normalized: `${verb} ${query}` };
    }
    case 'tool run': {
      arity(3);
      const tool = expectName(tokens[2], TOOL_NAME, 'tool name');
      const { input, text } = json();
      return { command: { kind: 'tool.run', tool, input }, normalized: `${verb} ${tool}${text}` };
    }
    case 'mcp call': {
      arity(4);
      const server = expectName(tokens[2], SLUG, 'server');
      const tool = expectName(tokens[3], CONNECTOR_TOOL, 'tool name');
      const { input, text } = json();
      return {
        command: { kind: 'mcp.call', server, tool, input },
        normalized: `${verb} ${server} ${tool}${text}`,
      };
    }
    case 'skills install': {
      noPayload();
      arity(3);
      const slug = expectName(tokens[2], SLUG, 'skill slug');
      return { command: { kind: 'skills.install', slug }, normalized: `${verb} ${slug}` };
    }
    case 'skills use': {
      arity(4);
      const slug = expectName(tokens[2], SLUG, 'skill slug');
      const capability = expectName(tokens[3], SLUG, 'capability');
      const { input, text } = json();
      return {
        command: { kind: 'skills.use', slug, capability, input },
        normalized: `${verb} ${slug} ${capability}${text}`,
      };
    }
    case 'apps list':
      noPayload();
      arity(2);
      return { command: { kind: 'apps.list' }, normalized: verb };
    case 'apps search': {
      noPayload();
      if (tokens.length < 3) throw new StudioSyntaxError('Missing search query');
      const query = tokens.slice(2).join(' ');
      return { command: { kind: 'apps.search', query }, normalized: `${verb} ${query}` };
    }
    case 'apps install': {
      noPayload();
      arity(3);
      const slug = expectName(tokens[2], SLUG, 'app slug');
      return { command: { kind: 'apps.install', slug }, normalized: `${verb} ${slug}` };
    }
    case 'apps open': {
      noPayload();
      if (tokens.length > 4) arity(4);
      const slug = expectName(tokens[2], SLUG, 'app slug');
      const target = tokens[3] ?? 'web';
      if (target !== 'web' && target !== 'android' && target !== 'ios') {
        throw new StudioSyntaxError(`Unknown target: ${target.slice(0, 50)} (web, android or ios)`);
      }
      return { command: { kind: 'apps.open', slug, target }, normalized: `${verb} ${slug} ${target}` };
    }
    case 'advanced run': {
      arity(3);
      const language = tokens[2];
      if (language !== 'javascript') {
        throw new StudioSyntaxError(
          `Unsupported language: ${language.slice(0, 50)} (the sandbox runs javascript only)`,
        );
      }
      if (flag !== 'code') throw new StudioSyntaxError('Missing --code <src>');
      return {
        command: { kind: 'advanced.run', language, code: payload! },
        normalized: `${verb} ${language} --code ${payload!}`,
      };
    }
    default:
      throw new StudioSyntaxError(`Unknown command: ${verb.slice(0, 100)} (type help)`);
  }
}
