import type { ConnectorDocument } from '../../schemas/documents/connector';
import { errors } from '../../schemas/errors';
import type { CreateConnectorBody } from '../../schemas/http/connectors';
import type { ConnectorCallRelated } from '../../schemas/messages/connectors';
import { capabilityRequired, planHas, type PlanId } from '../identity/plans';

/**
 * What the service lets an account connect to (docs/connectors.md, "Security"). Stdio connectors
 * run a program on the worker: only command lines that start with an entry of the deployment's
 * MCP_STDIO_ALLOWLIST, without environment variables that change how programs load code. HTTP
 * connectors go through the same SSRF guard as `net_http_*` (mcp-http-fetch.ts).
 */

/** The capability an account needs for stdio connectors (enterprise plans). */
export const STDIO_CAPABILITY = 'manage_manifest';

/**
 * Variables that make a program (or its interpreter, loader or shell) run other code, or that
 * decide where programs are found. An allowlisted command line would be worthless with them.
 */
const FORBIDDEN_ENV = new Set([
  'PATH',
  'HOME',
  'SHELL',
  'ENV',
  'BASH_ENV',
  'CDPATH',
  'IFS',
  'PS4',
  'SHELLOPTS',
  'BASHOPTS',
  'GLOBIGNORE',
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_EXTRA_CA_CERTS',
  'NODE_TLS_REJECT_UNAUTHORIZED',
  'NODE_REPL_EXTERNAL_MODULE',
  'PERL5OPT',
  'PERL5LIB',
  'PERLLIB',
  'RUBYOPT',
  'RUBYLIB',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'CLASSPATH',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_EXEC_PATH',
  'GCONV_PATH',
  'HOSTALIASES',
  'LOCALDOMAIN',
  'RES_OPTIONS',
  'TMPDIR',
  'NPM_CONFIG_PREFIX',
  'NPM_CONFIG_USERCONFIG',
  'NPM_CONFIG_GLOBALCONFIG',
  'DENO_DIR',
  'BUN_INSTALL',
]);
const FORBIDDEN_ENV_PREFIX =
  /^(LD_|DYLD_|PYTHON|PIP_|UV_|NPM_CONFIG_SCRIPT|NODE_|BASH_FUNC_|MALLOC_|GLIBC_|LUA_|PHP_INI|R_PROFILE|R_ENVIRON)/i;

/** Refuses environment variables that would defeat the allowlist (400, naming them). */
export function checkStdioEnv(env: Record<string, string> | undefined): void {
  const refused = Object.keys(env ?? {}).filter(
    (name) =>
      name.toUpperCase() !== 'NODE_ENV' &&
      (FORBIDDEN_ENV.has(name.toUpperCase()) || FORBIDDEN_ENV_PREFIX.test(name)),
  );
  if (refused.length > 0) {
    throw errors.validation(
      `Invalid request body: env: ${refused.join(', ')} cannot be set for a stdio connector (it changes which code the program runs)`,
      { details: refused.map((name) => ({ path: `env.${name}`, message: 'not allowed' })) },
    );
  }
}

/** The allowlist entry that `[command, ...args]` starts with, or undefined. */
export function matchStdioAllowlist(
  allowlist: readonly (readonly string[])[],
  command: string,
  args: readonly string[],
): readonly string[] | undefined {
  const argv = [command, ...args];
  return allowlist.find(
    (prefix) => prefix.length <= argv.length && prefix.every((part, i) => argv[i] === part),
  );
}

/** Refuses a command line the deployment did not allow (403, saying how to allow it). */
export function checkStdioCommand(
  allowlist: readonly (readonly string[])[],
  command: string,
  args: readonly string[],
): void {
  if (allowlist.length === 0) {
    throw errors.forbidden(
      'Stdio connectors are disabled on this service: the operator of the deployment must list allowed commands in MCP_STDIO_ALLOWLIST',
      { reason: 'stdio_disabled' },
    );
  }
  if (!matchStdioAllowlist(allowlist, command, args)) {
    throw errors.forbidden(
      `Command not allowed for stdio connectors: "${command.slice(0, 200)}" with these arguments is not in MCP_STDIO_ALLOWLIST`,
      { reason: 'stdio_not_allowlisted' },
    );
  }
}

/**
 * Headers an operator may not set on an HTTP connector: the transport owns the connection, the
 * body and the MCP session headers.
 */
const FORBIDDEN_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'http2-settings',
  'content-length',
  'content-type',
  'content-encoding',
  'accept',
  'accept-encoding',
  'expect',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
]);

/** Refuses headers the transport must own (400, naming them). */
export function checkHttpHeaders(headers: Record<string, string> | undefined): void {
  const names = Object.keys(headers ?? {});
  const refused = names.filter((name) => FORBIDDEN_HEADERS.has(name.toLowerCase()));
  const lower = names.map((n) => n.toLowerCase());
  const duplicated = names.filter((n, i) => lower.indexOf(n.toLowerCase()) !== i);
  if (refused.length > 0 || duplicated.length > 0) {
    const problems = [
      ...refused.map((name) => ({
        path: `headers.${name}`,
        message: 'set by the MCP transport; cannot be given',
      })),
      ...duplicated.map((name) => ({
        path: `headers.${name}`,
        message: 'given twice (header names ignore case)',
      })),
    ];
    throw errors.validation(
      `Invalid request body: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
      { details: problems },
    );
  }
}

/** A call made for an app, workflow or skill outside the connector's `permissionScope`: 403. */
export function assertInScope(doc: ConnectorDocument, related: ConnectorCallRelated | undefined): void {
  const labels = { apps: 'app', workflows: 'workflow', skills: 'skill' } as const;
  for (const kind of ['apps', 'workflows', 'skills'] as const) {
    const allowed = doc.permissionScope[kind];
    const outside = allowed ? (related?.[kind] ?? []).find((ref) => !allowed.includes(ref)) : undefined;
    if (outside !== undefined) {
      throw errors.forbidden(
        `Connector "${doc.slug}" is not available to ${labels[kind]} ${outside} (permissionScope)`,
      );
    }
  }
}

/**
 * The checks of a new connector that need no I/O: for stdio the plan (`manage_manifest`), the
 * environment and the allowlist; for http the headers. The endpoint itself is vetted when the
 * session opens (DNS).
 */
export function checkRegistration(
  body: CreateConnectorBody,
  context: { plan: PlanId | undefined; stdioAllowlist: readonly (readonly string[])[] },
): void {
  if (body.transport === 'stdio') {
    if (!context.plan || !planHas(context.plan, STDIO_CAPABILITY)) {
      throw errors.forbidden(capabilityRequired(STDIO_CAPABILITY));
    }
    checkStdioEnv(body.env);
    checkStdioCommand(context.stdioAllowlist, body.command ?? '', body.args ?? []);
    return;
  }
  checkHttpHeaders(body.headers);
}
