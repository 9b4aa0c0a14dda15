import { z } from 'zod';
import type { TokenClaims } from '../../schemas/auth';
import type { CachePort } from '../../src/store/cache';

/**
 * One revocation as it travels between nodes (broadcast, cache log). Times are epoch ms. A cutoff
 * written by an older node carries `notBefore` in whole seconds instead of `notBeforeMs`: it is
 * read as the first millisecond of that second (what it meant: tokens of earlier seconds).
 */
export const SharedRevocationSchema = z.union([
  z.object({ kind: z.literal('token'), jti: z.string().min(1), expiresAt: z.number() }),
  z
    .object({
      kind: z.literal('subject'),
      subject: z.string().min(1),
      notBeforeMs: z.number().optional(),
      notBefore: z.number().optional(),
      expiresAt: z.number(),
    })
    .refine((r) => r.notBeforeMs !== undefined || r.notBefore !== undefined, 'needs notBeforeMs')
    .transform((r) => ({
      kind: r.kind,
      subject: r.subject,
      notBeforeMs: r.notBeforeMs ?? (r.notBefore as number) * 1000,
      expiresAt: r.expiresAt,
    })),
]);
export type SharedRevocation = z.output<typeof SharedRevocationSchema>;

/** Entries added between two sweeps of expired ones. */
const PRUNE_EVERY = 1024;

/**
 * The revocations this process knows of: token ids (`jti` → the token's expiry) and account
 * cutoffs (subject → `notBeforeMs`: account tokens issued before that millisecond are refused). Checking a token against it costs two map lookups, which is
 * what lets `TokenService.verify` skip the cache on every request (token-service.ts). Entries
 * are dropped once the tokens they refuse have expired anyway. Applying is idempotent, and a
 * cutoff only ever moves forward.
 */
export class RevocationList {
  private readonly tokens = new Map<string, number>();
  private readonly cutoffs = new Map<string, { notBeforeMs: number; expiresAt: number }>();
  private added = 0;

  apply(record: SharedRevocation): void {
    if (record.kind === 'token') {
      this.tokens.set(record.jti, Math.max(this.tokens.get(record.jti) ?? 0, record.expiresAt));
    } else {
      const known = this.cutoffs.get(record.subject);
      if (!known || known.notBeforeMs < record.notBeforeMs) {
        this.cutoffs.set(record.subject, { notBeforeMs: record.notBeforeMs, expiresAt: record.expiresAt });
      }
    }
    if (++this.added % PRUNE_EVERY === 0) this.prune(Date.now());
  }

  /** Whether these (signature-checked) claims are refused by a known revocation. */
  refuses(claims: Pick<TokenClaims, 'jti' | 'typ' | 'sub' | 'iatMs'>): boolean {
    if (this.tokens.size > 0 && this.tokens.has(claims.jti)) return true;
    if (claims.typ !== 'account' || this.cutoffs.size === 0) return false;
    const cutoff = this.cutoffs.get(claims.sub);
    return cutoff !== undefined && claims.iatMs < cutoff.notBeforeMs;
  }

  get size(): number {
    return this.tokens.size + this.cutoffs.size;
  }

  private prune(now: number): void {
    for (const [jti, expiresAt] of this.tokens) if (expiresAt <= now) this.tokens.delete(jti);
    for (const [subject, c] of this.cutoffs) if (c.expiresAt <= now) this.cutoffs.delete(subject);
  }
}

const lists = new WeakMap<CachePort, RevocationList>();

/**
 * The list of the process for one cache. Revocations are kept per cache (the store every node
 * shares) rather than per `TokenService`: every token service of the process over the same cache
 * sees a revocation made through any of them at once.
 */
export function revocationListOf(cache: CachePort): RevocationList {
  let list = lists.get(cache);
  if (!list) {
    list = new RevocationList();
    lists.set(cache, list);
  }
  return list;
}
