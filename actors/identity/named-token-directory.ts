import { z } from 'zod';
import { TokenScopeSchema } from '../../schemas/auth';
import type { NamedTokenDocument } from '../../schemas/documents/named-token';
import type { CachePort } from '../../src/store/cache';
import type { Repository } from '../../src/store/mongo';

/**
 * What a request authenticated with a named token needs to know about it, held in the cache so
 * that checking it costs one cache read, not a document read per request.
 */
export const NamedTokenRecordSchema = z.object({
  accountId: z.string(),
  status: z.enum(['live', 'revoked']),
  /** Current scopes; empty = unrestricted. These, not the JWT's `scopes` claim, are enforced. */
  scopes: z.array(TokenScopeSchema),
  /** `jti` of the only value currently valid (an older value, rotated away, is refused). */
  jti: z.string(),
  workspaceId: z.string().optional(),
  projectId: z.string().optional(),
});
export type NamedTokenRecord = z.infer<typeof NamedTokenRecordSchema>;

const RECORD_PREFIX = 'named-token:record:';
const USED_PREFIX = 'named-token:used:';
/** How long a record stays in the cache after a read from the documents. */
export const NAMED_TOKEN_RECORD_TTL_MS = 10 * 60_000;
/** At most one `lastUsedAt` write per token per this interval. */
export const LAST_USED_WRITE_INTERVAL_MS = 60_000;

function recordOf(doc: NamedTokenDocument): NamedTokenRecord {
  return {
    accountId: doc.accountId,
    status: doc.status,
    scopes: doc.scopes,
    jti: doc.jti,
    ...(doc.workspaceId ? { workspaceId: doc.workspaceId } : {}),
    ...(doc.projectId ? { projectId: doc.projectId } : {}),
  };
}

/**
 * The cache-held view of named tokens, shared by the `named-tokens` actor (which publishes every
 * change right after writing the document) and the front door's scope check (which reads it).
 *
 * A cache miss reads the document and fills the cache **only if absent** (`SET NX`): if the
 * actor published a change between that read and the fill, the fresher value wins. With Redis,
 * a change is seen by every node at once; the in-memory cache is for one process.
 */
export class NamedTokenDirectory {
  constructor(
    private readonly repo: Repository<NamedTokenDocument>,
    private readonly cache: CachePort,
  ) {}

  /** The token's record, or null when no such token exists. */
  async lookup(id: string): Promise<NamedTokenRecord | null> {
    const cached = await this.cache.get(RECORD_PREFIX + id);
    if (cached !== null) {
      const parsed = NamedTokenRecordSchema.safeParse(safeJson(cached));
      if (parsed.success) return parsed.data;
    }
    const doc = await this.repo.findById(id);
    if (!doc) return null;
    const record = recordOf(doc);
    await this.cache.set(RECORD_PREFIX + id, JSON.stringify(record), {
      ttlMs: NAMED_TOKEN_RECORD_TTL_MS,
      onlyIfAbsent: true,
    });
    return record;
  }

  /** Makes a change visible to every request from now on (called after the document write). */
  async publish(doc: NamedTokenDocument): Promise<void> {
    await this.cache.set(RECORD_PREFIX + doc._id, JSON.stringify(recordOf(doc)), {
      ttlMs: NAMED_TOKEN_RECORD_TTL_MS,
    });
  }

  /**
   * Notes a use of the token. Resolves true at most once per `LAST_USED_WRITE_INTERVAL_MS` per
   * token (a `SET NX` with that TTL, shared by every node through Redis): only then is a
   * `lastUsedAt` write due.
   */
  async claimLastUsedWrite(id: string): Promise<boolean> {
    return this.cache.set(USED_PREFIX + id, '1', { ttlMs: LAST_USED_WRITE_INTERVAL_MS, onlyIfAbsent: true });
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
