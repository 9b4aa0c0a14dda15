import { randomBytes } from 'node:crypto';
import { NamedTokenDocumentSchema, type NamedTokenDocument } from '../../schemas/documents/named-token';
import type { BearerTokenView } from '../../schemas/http/bearer-tokens';
import { defineCollection } from '../../src/store/mongo';

/**
 * `named_tokens`: named scoped bearer tokens, live and revoked (revoked ones are kept for audit).
 *
 * - `live_name_unique`: a name is unique among an account's **live** tokens (case-insensitive);
 *   a revoked token's name can be reused.
 * - `account_created`: an account's tokens in creation order.
 */
export const namedTokensCollection = defineCollection({
  name: 'named_tokens',
  schema: NamedTokenDocumentSchema,
  indexes: [
    {
      key: { accountId: 1, nameKey: 1 },
      name: 'live_name_unique',
      unique: true,
      partialFilterExpression: { status: 'live' },
    },
    { key: { accountId: 1, createdAt: 1 }, name: 'account_created' },
  ],
});

/** Prefix of named token ids (public: returned as `id`). */
export const NAMED_TOKEN_ID_PREFIX = 'ntk_';

export function newNamedTokenId(): string {
  return NAMED_TOKEN_ID_PREFIX + randomBytes(12).toString('hex');
}

/** The masked form of a token value: first 8 characters, `...`, last 6. */
export function maskToken(value: string): string {
  return `${value.slice(0, 8)}...${value.slice(-6)}`;
}

/** A named token as shown to its owner: never the value, never the account id. */
export function bearerTokenView(doc: NamedTokenDocument): BearerTokenView {
  return {
    id: doc._id,
    name: doc.name,
    workspaceId: doc.workspaceId ?? null,
    projectId: doc.projectId ?? null,
    scopes: doc.scopes,
    maskedToken: doc.maskedToken,
    status: doc.status,
    lastUsedAt: doc.lastUsedAt?.toISOString() ?? null,
    createdAt: doc.createdAt.toISOString(),
    expiresAt: doc.expiresAt.toISOString(),
    ...(doc.revokedAt ? { revokedAt: doc.revokedAt.toISOString() } : {}),
  };
}
