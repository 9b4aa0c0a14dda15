import { z } from 'zod';
import {
  OAuthAuthorizeParamsSchema,
  OAuthRegisterBodySchema,
  OAuthRevokeBodySchema,
  OAuthTokenBodySchema,
} from '../../schemas/http/oauth';
import { defineContracts } from '../../src/http/openapi/contract';

/**
 * OAuth errors follow RFC 6749 §5.2 (`{error, error_description}`), not the service's
 * `{error, code}`: OAuth clients read these fields.
 */
const OAuthErrorSchema = z.object({ error: z.string(), error_description: z.string().optional() });

const html = (description: string) => ({ description, contentType: 'text/html', schema: z.string() });
const redirect = (description: string) => ({
  description,
  headers: { Location: 'where the browser goes next' },
});

/** oauth-server.route.ts, oauth-authorize.route.ts and oauth-revoke.route.ts (docs/oauth.md). */
export const oauthContracts = defineContracts('OAuth for MCP clients', [
  {
    method: 'get',
    path: '/.well-known/oauth-authorization-server',
    summary: 'Authorization server metadata (RFC 8414)',
    auth: 'none',
    responses: {
      200: z.looseObject({
        issuer: z.string(),
        authorization_endpoint: z.string(),
        token_endpoint: z.string(),
        registration_endpoint: z.string(),
        revocation_endpoint: z.string(),
        code_challenge_methods_supported: z.array(z.string()),
      }),
    },
  },
  {
    method: 'post',
    path: '/oauth/register',
    summary: 'Dynamic client registration (RFC 7591): public clients with exact redirect URIs',
    auth: 'none',
    body: OAuthRegisterBodySchema,
    bodyExample: { redirect_uris: ['http://127.0.0.1:6274/callback'], client_name: 'My MCP client' },
    responses: {
      201: z.looseObject({ client_id: z.string(), redirect_uris: z.array(z.string()) }),
      400: { description: 'Refused client metadata', schema: OAuthErrorSchema },
    },
  },
  {
    method: 'get',
    path: '/oauth/authorize',
    summary: 'Authorization request (PKCE S256 only): the sign-in or consent page',
    auth: 'optional',
    query: OAuthAuthorizeParamsSchema,
    responses: {
      200: html('The sign-in page, or the consent page for a signed-in browser'),
      302: redirect('Back to the client’s redirect URI with an error'),
      400: html('A request that cannot be sent back to the client (unknown client or redirect URI)'),
    },
  },
  {
    method: 'post',
    path: '/oauth/authorize',
    summary: 'The sign-in or consent form: redirects to the client with a single-use code',
    auth: 'optional',
    body: OAuthAuthorizeParamsSchema,
    bodyContentType: 'application/x-www-form-urlencoded',
    responses: {
      200: html('The page again, with what went wrong (a bad password, say)'),
      302: redirect('Back to the client’s redirect URI with `code` and `state`, or an error'),
      400: html('A malformed authorization request'),
    },
  },
  {
    method: 'post',
    path: '/oauth/token',
    summary: 'Token endpoint: authorization code (with the PKCE verifier) or refresh with rotation',
    auth: 'none',
    body: OAuthTokenBodySchema,
    bodyContentType: 'application/x-www-form-urlencoded',
    responses: {
      200: z.looseObject({
        access_token: z.string(),
        token_type: z.string(),
        expires_in: z.number(),
        refresh_token: z.string(),
        scope: z.string(),
      }),
      400: { description: 'invalid_grant, invalid_request…', schema: OAuthErrorSchema },
    },
  },
  {
    method: 'post',
    path: '/oauth/revoke',
    summary:
      'Token revocation (RFC 7009): a refresh or access token ends its whole grant; unknown tokens are 200 too',
    auth: 'none',
    body: OAuthRevokeBodySchema,
    bodyContentType: 'application/x-www-form-urlencoded',
    responses: {
      200: { description: 'Revoked, or nothing to revoke (unknown, expired or another client’s token)' },
      400: { description: 'invalid_request: no token', schema: OAuthErrorSchema },
      401: { description: 'invalid_client: unknown or missing client_id', schema: OAuthErrorSchema },
    },
  },
]);
