import { z } from 'zod';

/**
 * The service as an OAuth 2.1 authorization server for MCP clients (docs/oauth.md). Secrets
 * (authorization codes, refresh tokens) are never stored: only their SHA-256 (base64url).
 */

/** A client registered by RFC 7591 dynamic registration (public: PKCE, no secret). */
export const OAuthClientDocumentSchema = z.object({
  /** `client_id` (`oac_…`). */
  _id: z.string(),
  clientName: z.string().max(200),
  /** Compared exactly (no prefix, no wildcard) with the `redirect_uri` of each request. */
  redirectUris: z.array(z.string()).min(1).max(10),
  createdAt: z.date(),
});
export type OAuthClientDocument = z.infer<typeof OAuthClientDocumentSchema>;

/**
 * An authorization request waiting for the signed-in user's consent: the consent form names it,
 * and only the browser session it was made for may approve it, once.
 */
export const OAuthConsentDocumentSchema = z.object({
  _id: z.string(),
  sessionId: z.string(),
  accountId: z.string(),
  clientId: z.string(),
  redirectUri: z.string(),
  codeChallenge: z.string(),
  state: z.string().optional(),
  expiresAt: z.date(),
});
export type OAuthConsentDocument = z.infer<typeof OAuthConsentDocumentSchema>;

/** An authorization code (single use, a minute). */
export const OAuthCodeDocumentSchema = z.object({
  /** SHA-256 of the code. */
  _id: z.string(),
  clientId: z.string(),
  redirectUri: z.string(),
  codeChallenge: z.string(),
  accountId: z.string(),
  expiresAt: z.date(),
  /** Set when the code is exchanged; a second exchange then revokes what the first one issued. */
  usedAt: z.date().optional(),
  grantId: z.string().optional(),
});
export type OAuthCodeDocument = z.infer<typeof OAuthCodeDocumentSchema>;

/** What a code exchange granted: a named token (the access token) and its current refresh token. */
export const OAuthGrantDocumentSchema = z.object({
  /** `oag_…`. */
  _id: z.string(),
  accountId: z.string(),
  clientId: z.string(),
  /** The named token (`ntk_…`, scope `mcp_connector`) the access tokens are values of. */
  namedTokenId: z.string(),
  /** SHA-256 of the refresh token currently valid. */
  refreshHash: z.string(),
  /** Refresh tokens already used: presenting one again revokes the grant (rotation, OAuth 2.1). */
  usedHashes: z.array(z.string()),
  status: z.enum(['live', 'revoked']),
  createdAt: z.date(),
  refreshedAt: z.date().optional(),
  /** The refresh token's end (the grant is then gone). */
  expiresAt: z.date(),
});
export type OAuthGrantDocument = z.infer<typeof OAuthGrantDocumentSchema>;
