/** Named-token scopes on the front door: the scope table and the gate applied behind authentication. */
import type { RequestHandler } from 'express';
import { NamedTokenDirectory } from '../../../actors/identity/named-token-directory';
import { namedTokensCollection } from '../../../actors/identity/named-tokens.collection';
import type { Services } from '../../boot/services';
import { withScopes } from './scopes.middleware';

export { ROUTE_SCOPE_RULES, scopesForPath, type RouteScopeRule } from './route-scopes';
export { requireScope, scopeDenied, withScopes, type ScopeGateOptions } from './scopes.middleware';

/**
 * Puts the scope gate behind both authentication hooks, once for every route: `requireAuth`
 * refuses a scoped token outside its reach (403), `optionalAuth` lets it through as anonymous.
 * Both check named tokens against their current record (revoked, rotated, rescoped).
 */
export function withScopeGate<A extends { requireAuth: RequestHandler; optionalAuth: RequestHandler }>(
  services: Services,
  auth: A,
): A {
  const directory = new NamedTokenDirectory(
    services.documents.repository(namedTokensCollection),
    services.cache,
  );
  const common = { directory, system: services.system, logger: services.logger };
  return {
    ...auth,
    requireAuth: withScopes(auth.requireAuth, common),
    optionalAuth: withScopes(auth.optionalAuth, { ...common, onMiss: 'anonymous' }),
  };
}
