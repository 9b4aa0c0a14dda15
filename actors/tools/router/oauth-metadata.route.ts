import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isAppError } from '../../../schemas/errors';
import type { RouteModule } from '../../../src/http/app.types';
import { SERVICE_VERSION } from '../../../src/version';

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) for `POST /mcp`, and the `WWW-Authenticate`
 * challenge of its 401s that points MCP clients at it (MCP authorization, docs/tool-router.md,
 * "Authorization for MCP clients"). The authorization server it names is the service itself
 * (`/.well-known/oauth-authorization-server`, actors/oauth): OAuth clients get named tokens.
 */

export const MCP_PATH = '/mcp';
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

/** The resource identifier of `/mcp` and the address of its metadata (RFC 9728 §3.1: path inserted). */
export function mcpResource(publicBaseUrl: string) {
  return {
    resource: `${publicBaseUrl}${MCP_PATH}`,
    metadataUrl: `${publicBaseUrl}${RESOURCE_METADATA_PATH}${MCP_PATH}`,
  };
}

/**
 * Adds `WWW-Authenticate: Bearer resource_metadata="…"` to a 401 of `/mcp` (RFC 9728 §5.1; RFC
 * 6750 `error="invalid_token"` when a token was sent), then lets the usual error answer go out.
 */
export function bearerChallenge(publicBaseUrl: string): ErrorRequestHandler {
  const { metadataUrl } = mcpResource(publicBaseUrl);
  return (err, req, res, next) => {
    if (isAppError(err) && err.status === 401 && !res.headersSent) {
      const sentToken = req.headers.authorization !== undefined;
      res.setHeader(
        'WWW-Authenticate',
        `Bearer ${sentToken ? 'error="invalid_token", ' : ''}resource_metadata="${metadataUrl}"`,
      );
    }
    next(err);
  };
}

export const oauthMetadataRoute: RouteModule = (router, deps) => {
  const base = deps.config.PUBLIC_BASE_URL;
  const metadata = Object.freeze({
    resource: mcpResource(base).resource,
    // The service is its own authorization server (actors/oauth, docs/oauth.md): issuer = base URL.
    authorization_servers: [base],
    bearer_methods_supported: ['header'],
    scopes_supported: ['mcp_connector'],
    resource_name: `agent-runtime-service ${SERVICE_VERSION}`,
  });
  const serve: RequestHandler = (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.json(metadata);
  };
  // The path-inserted form for `/mcp` (what RFC 9728 clients derive) and the root form (what older
  // MCP clients try): one resource, one document.
  router.get(`${RESOURCE_METADATA_PATH}${MCP_PATH}`, serve);
  router.get(RESOURCE_METADATA_PATH, serve);
};
