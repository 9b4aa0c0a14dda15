/** Named-token scopes on the front door: the scope table and the gate applied behind authentication. */
import type { RequestHandler } from 'express';
import { withScopes, type ScopeGateOptions } from './scopes.middleware';

export { ROUTE_SCOPE_RULES, scopesForPath, type RouteScopeRule } from './route-scopes';
export {
  requireScope,
  scopeDenied,
  withScopes,
  type ScopeGateOptions,
  type ScopedTokenDirectory,
} from './scopes.middleware';

/**
 * Puts the scope gate behind both authentication hooks, once for every route: `requireAuth`
 * refuses a scoped token outside its reach (403), `optionalAuth` lets it through as anonymous.
 * Both check named tokens against their current record (revoked, rotated, rescoped) through the
 * directory port the composition root wires (`src/boot/http-auth.ts`).
 */
export function withScopeGate<A extends { requireAuth: RequestHandler; optionalAuth: RequestHandler }>(
  common: Omit<ScopeGateOptions, 'onMiss' | 'rules'>,
  auth: A,
): A {
  return {
    ...auth,
    requireAuth: withScopes(auth.requireAuth, common),
    optionalAuth: withScopes(auth.optionalAuth, { ...common, onMiss: 'anonymous' }),
  };
}
