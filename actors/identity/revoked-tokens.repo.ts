import { revokedTokensCollection } from './revoked-tokens.collection';
import { type RevokedTokenDocument } from '../../schemas/documents/revoked-token';
import { type DocumentStore, type Repository } from '../../src/store/mongo';
import type { RevocationRecord, RevocationStore } from './token-service';

/** The `RevocationStore` of `TokenService` on the document store. */
export class RevokedTokensRepo implements RevocationStore {
  private readonly repo: Repository<RevokedTokenDocument>;

  constructor(documents: DocumentStore) {
    this.repo = documents.repository(revokedTokensCollection);
  }

  async save(record: RevocationRecord): Promise<void> {
    const revokedAt = new Date();
    if (record.kind === 'token') {
      await this.repo.insertIfAbsent({
        _id: record.jti,
        kind: 'token',
        revokedAt,
        expiresAt: record.expiresAt,
      });
      return;
    }
    // A later cutoff replaces an earlier one, never the reverse ($max), whatever the arrival order.
    await this.repo.updateOne(
      { _id: `sub:${record.subject}` },
      {
        $set: { kind: 'subject', revokedAt },
        $max: { notBeforeMs: record.notBeforeMs, expiresAt: record.expiresAt },
      },
      { upsert: true },
    );
  }

  async *active(now: Date): AsyncIterable<RevocationRecord> {
    const cursor = this.repo.raw.find({ expiresAt: { $gt: now } });
    try {
      for await (const raw of cursor) {
        const doc = this.repo.parse(raw);
        if (doc.kind === 'token') yield { kind: 'token', jti: doc._id, expiresAt: doc.expiresAt };
        else if (doc.notBeforeMs !== undefined || doc.notBefore !== undefined) {
          // Both when an older cutoff (seconds) was later raised in ms: the later one wins.
          const notBeforeMs = Math.max(doc.notBeforeMs ?? 0, (doc.notBefore ?? 0) * 1000);
          yield { kind: 'subject', subject: doc._id.slice(4), notBeforeMs, expiresAt: doc.expiresAt };
        }
      }
    } finally {
      await cursor.close();
    }
  }
}
