import { NamedTokenDirectory } from '../../actors/identity/named-token-directory';
import { namedTokensCollection } from '../../actors/identity/named-tokens.collection';
import { createAuthMiddleware, createSessionMiddleware, type HttpAuth } from '../http/auth';
import { withScopeGate } from '../http/scopes';
import type { Services } from './services';

/**
 * The front door's authentication hooks over the identity domain: bearer tokens checked by the
 * token service, browser sessions in the cache, and the named-token scope gate behind both
 * (`src/http/auth`, `src/http/scopes` take these as ports).
 */
export function createHttpAuth(services: Services): HttpAuth {
  const publicBaseUrl = services.config.PUBLIC_BASE_URL;
  const auth = createAuthMiddleware({ tokens: services.tokens, publicBaseUrl });
  const directory = new NamedTokenDirectory(
    services.documents.repository(namedTokensCollection),
    services.cache,
  );
  return {
    ...withScopeGate({ directory, system: services.system, logger: services.logger }, auth),
    session: createSessionMiddleware({
      cache: services.cache,
      jwtSecret: services.secrets.jwtSecret,
      publicBaseUrl,
      maxAgeMs: services.identity.sessionMaxAgeMs,
    }),
  };
}
