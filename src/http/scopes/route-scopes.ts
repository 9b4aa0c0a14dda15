import type { TokenScope } from '../../../schemas/auth';

/** One line of the scope table: the routes under `prefix` accept a token with any of `scopes`. */
export interface RouteScopeRule {
  /** A path prefix matched on segment boundaries: `/api/apps` covers `/api/apps/x/open`, not `/api/appsx`. */
  prefix: string;
  scopes: readonly TokenScope[];
}

/**
 * Which named-token scopes reach which routes (documented in docs/agents-and-tokens.md). The
 * longest matching prefix wins; **every `/api/*` route also accepts `api`**. A route matched by
 * no line and outside `/api` accepts no scoped token (only unrestricted ones): a new route family
 * outside `/api` must be added here to be reachable with scoped tokens.
 *
 * Tokens without scopes, agent keys, account tokens and browser sessions are not restricted.
 */
export const ROUTE_SCOPE_RULES: readonly RouteScopeRule[] = Object.freeze([
  // The tool router and connectors.
  { prefix: '/mcp', scopes: ['mcp_connector'] },
  { prefix: '/api/connectors', scopes: ['mcp_connector'] },
  { prefix: '/api/ffp/routes', scopes: ['mcp_connector'] },
  // Agents: the registration record and deployed agents.
  { prefix: '/agent', scopes: ['external_agent'] },
  { prefix: '/api/agents', scopes: ['external_agent'] },
  // Governed data of a workspace or project.
  { prefix: '/api/workspaces', scopes: ['workspace'] },
  { prefix: '/api/workspace-invitations', scopes: ['workspace'] },
  { prefix: '/api/projects', scopes: ['project'] },
  { prefix: '/api/files', scopes: ['workspace', 'project'] },
  { prefix: '/api/memory', scopes: ['workspace', 'project'] },
  // Skills and apps, and the vault access they use at run time.
  { prefix: '/api/apps', scopes: ['app'] },
  { prefix: '/api/skills', scopes: ['app'] },
  { prefix: '/api/vault/access', scopes: ['app'] },
  // Workflows: studio, executions, recovery, panic, notifications.
  { prefix: '/api/studio', scopes: ['workflow'] },
  { prefix: '/api/executions', scopes: ['workflow'] },
  { prefix: '/api/recovery', scopes: ['workflow'] },
  { prefix: '/api/panic', scopes: ['workflow'] },
  { prefix: '/api/notifications', scopes: ['workflow'] },
  { prefix: '/api/workflows', scopes: ['workflow'] },
]);

const API_PREFIX = '/api';

function covers(prefix: string, path: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * The scopes that let a scoped token reach `path` (any one of them suffices), from `rules`.
 * Empty: only unrestricted callers may.
 */
export function scopesForPath(
  path: string,
  rules: readonly RouteScopeRule[] = ROUTE_SCOPE_RULES,
): TokenScope[] {
  const normalised = path.length > 1 ? path.replace(/\/+$/, '') : path;
  let best: RouteScopeRule | undefined;
  for (const rule of rules) {
    if (covers(rule.prefix, normalised) && (!best || rule.prefix.length > best.prefix.length)) best = rule;
  }
  const scopes = new Set<TokenScope>(best?.scopes ?? []);
  if (covers(API_PREFIX, normalised)) scopes.add('api');
  return [...scopes];
}
