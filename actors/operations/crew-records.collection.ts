import { z } from 'zod';
import { defineCollection } from '../../src/store/mongo';

/**
 * The crew's records in the document store, used when there is no Redis to share (crew-documents
 * .store.ts): node heartbeats, stored assignments and duty run locks, each a key with a lease.
 * Reads ignore a lapsed record whatever the TTL monitor has done yet; the TTL index only tidies.
 */
export const CrewRecordSchema = z.object({
  /** `<cluster>:<key>` (`node:<id>`, `assign:<slug>`, `run:<duty>`). */
  _id: z.string().min(1).max(400),
  value: z.string().max(64 * 1024),
  expiresAt: z.date(),
});

export type CrewRecord = z.infer<typeof CrewRecordSchema>;

export const crewRecordsCollection = defineCollection({
  name: 'crew_records',
  schema: CrewRecordSchema,
  indexes: [{ key: { expiresAt: 1 }, name: 'expires_at_ttl', expireAfterSeconds: 0 }],
});
