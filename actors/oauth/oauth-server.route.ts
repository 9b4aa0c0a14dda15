import express, { type RequestHandler, type Response } from 'express';
import { OAuthRegisterBodySchema, OAuthTokenBodySchema } from '../../schemas/http/oauth';
import type { RouteModule } from '../../src/http/app.types';
import { ipKey, rateLimit } from '../../src/http/auth';
import { mcpResourceOf, type OAuthRouteServices } from './oauth-authorize.route';
import { OAuthError, OAuthGrants, OAUTH_SCOPE } from './oauth-grants';
import { newId, oauthClientsCollection } from './oauth.collection';

/**
 * The authorization server's metadata (RFC 8414), dynamic client registration (RFC 7591) and the
 * token endpoint (docs/oauth.md; revocation is `oauth-revoke.route.ts`). Errors here are OAuth's
 * own JSON (`{error, error_description}`, RFC 6749 §5.2), with `code` as every other 4xx has it.
 */

export const AS_METADATA_PATH = '/.well-known/oauth-authorization-server';

/** Redirect URIs a public client may register: https, or http on a loopback host (native apps). */
function acceptableRedirect(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.hash !== '') return false;
  if (url.protocol === 'https:') return true;
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  return url.protocol === 'http:' && loopback;
}

export function oauthError(res: Response, err: OAuthError): void {
  res
    .status(err.status)
    .setHeader('Cache-Control', 'no-store')
    .json({
      error: err.error,
      error_description: err.description,
      code: err.status === 401 ? 'UNAUTHORIZED' : 'VALIDATION_ERROR',
    });
}

export const oauthServerRoute: RouteModule<OAuthRouteServices> = (router, deps) => {
  const services = deps.services;
  if (!services) return;
  const issuer = deps.config.PUBLIC_BASE_URL;
  const clients = services.documents.repository(oauthClientsCollection);
  const grants = new OAuthGrants(services.documents, deps.system);
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  const metadata = Object.freeze({
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    registration_endpoint: `${issuer}/oauth/register`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    scopes_supported: [OAUTH_SCOPE],
    authorization_response_iss_parameter_supported: true,
  });
  const serveMetadata: RequestHandler = (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.json(metadata);
  };
  router.get(AS_METADATA_PATH, serveMetadata);

  router.post(
    '/oauth/register',
    rateLimit({
      cache: services.cache,
      name: 'oauth-register-ip',
      points: 20,
      durationSec: 3600,
      key: ipKey,
    }),
    async (req, res) => {
      const parsed = OAuthRegisterBodySchema.safeParse(req.body);
      const fail = (description: string, error = 'invalid_client_metadata') =>
        oauthError(res, new OAuthError(error, description));
      if (!parsed.success) return fail(parsed.error.issues[0]?.message ?? 'Invalid client metadata');
      const body = parsed.data;
      const bad = body.redirect_uris.find((u) => !acceptableRedirect(u));
      if (bad !== undefined) {
        return fail(
          `redirect_uri ${bad.slice(0, 200)}: https, or http on localhost, without a fragment`,
          'invalid_redirect_uri',
        );
      }
      // A public client: PKCE instead of a secret. Other methods would need a secret we do not issue.
      if (body.token_endpoint_auth_method !== undefined && body.token_endpoint_auth_method !== 'none') {
        return fail('token_endpoint_auth_method must be none (public client with PKCE)');
      }
      const unsupported = (body.grant_types ?? []).find(
        (g) => g !== 'authorization_code' && g !== 'refresh_token',
      );
      if (unsupported) return fail(`grant_type ${unsupported.slice(0, 100)} is not supported`);
      if ((body.response_types ?? []).some((t) => t !== 'code')) return fail('response_types must be [code]');
      const doc = await clients.insert({
        _id: newId('oac'),
        clientName: body.client_name ?? 'MCP client',
        redirectUris: body.redirect_uris,
        createdAt: new Date(),
      });
      res
        .status(201)
        .setHeader('Cache-Control', 'no-store')
        .json({
          client_id: doc._id,
          client_id_issued_at: Math.floor(doc.createdAt.getTime() / 1000),
          client_name: doc.clientName,
          redirect_uris: doc.redirectUris,
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
          scope: OAUTH_SCOPE,
        });
    },
  );

  router.post(
    '/oauth/token',
    form,
    rateLimit({ cache: services.cache, name: 'oauth-token-ip', points: 120, durationSec: 60, key: ipKey }),
    async (req, res) => {
      const raw = (req.body ?? {}) as Record<string, unknown>;
      if (raw.grant_type !== 'authorization_code' && raw.grant_type !== 'refresh_token') {
        return oauthError(
          res,
          new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token'),
        );
      }
      const parsed = OAuthTokenBodySchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return oauthError(
          res,
          new OAuthError('invalid_request', `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`),
        );
      }
      if (parsed.data.resource !== undefined && parsed.data.resource !== mcpResourceOf(issuer)) {
        return oauthError(res, new OAuthError('invalid_target', `resource must be ${mcpResourceOf(issuer)}`));
      }
      try {
        const answer = await grants.token(parsed.data);
        res.setHeader('Cache-Control', 'no-store').setHeader('Pragma', 'no-cache').json(answer);
      } catch (err) {
        if (err instanceof OAuthError) return oauthError(res, err);
        throw err;
      }
    },
  );
};
