import { RevokedTokenDocumentSchema } from '../../schemas/documents/revoked-token';
import { defineCollection } from '../../src/store/mongo';

/** `revoked_tokens`: durable copy of token revocations, dropped by a TTL index once useless. */
export const revokedTokensCollection = defineCollection({
  name: 'revoked_tokens',
  schema: RevokedTokenDocumentSchema,
  indexes: [{ key: { expiresAt: 1 }, name: 'ttl_expiresAt', expireAfterSeconds: 0 }],
});
