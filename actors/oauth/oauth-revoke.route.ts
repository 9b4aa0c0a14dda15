import express from 'express';
import { OAuthRevokeBodySchema } from '../../schemas/http/oauth';
import type { RouteModule } from '../../src/http/app.types';
import { ipKey, rateLimit } from '../../src/http/auth';
import type { OAuthRouteServices } from './oauth-authorize.route';
import { OAuthError, OAuthGrants } from './oauth-grants';
import { OAuthRevocation } from './oauth-revocation';
import { oauthError } from './oauth-server.route';
import { oauthClientsCollection } from './oauth.collection';

/**
 * `POST /oauth/revoke` (RFC 7009, docs/oauth.md): `token`, `token_type_hint?` and the public
 * client's `client_id`, as form or JSON. The client is authenticated as at the token endpoint
 * (public clients: a registered `client_id`, else 401 `invalid_client`); then a missing token is
 * 400 `invalid_request`; anything else is 200 with an empty body, whether or not the token was
 * known (oauth-revocation.ts).
 */
export const oauthRevokeRoute: RouteModule<OAuthRouteServices> = (router, deps) => {
  const services = deps.services;
  if (!services) return;
  const clients = services.documents.repository(oauthClientsCollection);
  const revocation = new OAuthRevocation(
    services.documents,
    services.tokens,
    new OAuthGrants(services.documents, deps.system),
  );
  router.post(
    '/oauth/revoke',
    express.urlencoded({ extended: false, limit: '16kb' }),
    // The same budget as the token endpoint: both are where a client presents its secrets.
    rateLimit({ cache: services.cache, name: 'oauth-token-ip', points: 120, durationSec: 60, key: ipKey }),
    async (req, res) => {
      const raw = (req.body ?? {}) as Record<string, unknown>;
      const clientId = raw.client_id;
      const client =
        typeof clientId === 'string' && clientId.length > 0 && clientId.length <= 200
          ? await clients.findById(clientId)
          : null;
      if (!client) {
        return oauthError(res, new OAuthError('invalid_client', 'Unknown or missing client_id', 401));
      }
      if (typeof raw.token !== 'string' || raw.token === '') {
        return oauthError(res, new OAuthError('invalid_request', 'token is required'));
      }
      const parsed = OAuthRevokeBodySchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue?.path.join('.') || 'body';
        return oauthError(res, new OAuthError('invalid_request', `${field}: ${issue?.message ?? 'invalid'}`));
      }
      await revocation.revoke(client._id, parsed.data.token, parsed.data.token_type_hint);
      res.setHeader('Cache-Control', 'no-store').status(200).end();
    },
  );
};
