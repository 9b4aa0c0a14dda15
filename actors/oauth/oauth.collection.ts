import { createHash, randomBytes } from 'node:crypto';
import {
  OAuthClientDocumentSchema,
  OAuthCodeDocumentSchema,
  OAuthConsentDocumentSchema,
  OAuthGrantDocumentSchema,
} from '../../schemas/documents/oauth';
import { defineCollection } from '../../src/store/mongo';

/** `oauth_clients`: dynamically registered MCP clients. */
export const oauthClientsCollection = defineCollection({
  name: 'oauth_clients',
  schema: OAuthClientDocumentSchema,
  indexes: [],
});

/** `oauth_consents`: authorization requests waiting for consent (gone a few minutes later). */
export const oauthConsentsCollection = defineCollection({
  name: 'oauth_consents',
  schema: OAuthConsentDocumentSchema,
  indexes: [{ key: { expiresAt: 1 }, name: 'expires_ttl', expireAfterSeconds: 0 }],
});

/** `oauth_codes`: authorization codes, kept an hour past their minute so a replay is recognised. */
export const oauthCodesCollection = defineCollection({
  name: 'oauth_codes',
  schema: OAuthCodeDocumentSchema,
  indexes: [{ key: { expiresAt: 1 }, name: 'expires_ttl', expireAfterSeconds: 3600 }],
});

/** `oauth_grants`: one per code exchange; found by the refresh token's hash (current or used) or its named token. */
export const oauthGrantsCollection = defineCollection({
  name: 'oauth_grants',
  schema: OAuthGrantDocumentSchema,
  indexes: [
    { key: { refreshHash: 1 }, name: 'refresh_hash' },
    { key: { usedHashes: 1 }, name: 'used_hashes' },
    // Revoking an access token (RFC 7009) finds its grant by the named token.
    { key: { namedTokenId: 1 }, name: 'named_token' },
    { key: { expiresAt: 1 }, name: 'expires_ttl', expireAfterSeconds: 0 },
  ],
});

export const oauthCollections = [
  oauthClientsCollection,
  oauthConsentsCollection,
  oauthCodesCollection,
  oauthGrantsCollection,
] as const;

/** A secret for the wire (256 bits, base64url). */
export const newSecret = () => randomBytes(32).toString('base64url');
/** How a secret is stored: its SHA-256, base64url. */
export const hashSecret = (value: string) => createHash('sha256').update(value).digest('base64url');
export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url')}`;
