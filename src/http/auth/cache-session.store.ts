import { Store, type SessionData } from 'express-session';
import type { CachePort } from '../../store/cache';
import './session-data';

type Callback<T = unknown> = (err?: unknown, value?: T) => void;

/** Fallback lifetime of a session whose cookie has no expiry (should not happen: maxAge is set). */
const DEFAULT_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * express-session's store on the cache port: one implementation for Redis (`REDIS_URL`, shared by
 * every process, survives restarts of the service) and the in-memory cache (embedded mode: sessions
 * are lost when the process restarts, and the bounded LRU cache may evict the least recently used
 * ones under pressure). Keys: `s:<sid>` holds the JSON session, `a:<accountId>:<sid>` indexes the
 * sessions of an account so they can all be ended (password reset). Both expire with the cookie.
 */
export class CacheSessionStore extends Store {
  constructor(private readonly cache: CachePort) {
    super();
  }

  override get(sid: string, callback: Callback<SessionData | null>): void {
    this.cache.get(`s:${sid}`).then(
      (raw) => callback(undefined, raw === null ? null : parse(raw)),
      (err: unknown) => callback(err),
    );
  }

  override set(sid: string, session: SessionData, callback?: Callback): void {
    const ttlMs = ttlOf(session);
    const writes: Promise<unknown>[] = [this.cache.set(`s:${sid}`, JSON.stringify(session), { ttlMs })];
    if (session.accountId) writes.push(this.cache.set(`a:${session.accountId}:${sid}`, '1', { ttlMs }));
    Promise.all(writes).then(
      () => callback?.(),
      (err: unknown) => callback?.(err),
    );
  }

  override touch(sid: string, session: SessionData, callback?: Callback): void {
    const ttlMs = ttlOf(session);
    const writes: Promise<unknown>[] = [this.cache.expire(`s:${sid}`, ttlMs)];
    if (session.accountId) writes.push(this.cache.expire(`a:${session.accountId}:${sid}`, ttlMs));
    Promise.all(writes).then(
      () => callback?.(),
      (err: unknown) => callback?.(err),
    );
  }

  override destroy(sid: string, callback?: Callback): void {
    (async () => {
      const raw = await this.cache.take(`s:${sid}`);
      const accountId = raw === null ? undefined : parse(raw)?.accountId;
      if (accountId) await this.cache.delete(`a:${accountId}:${sid}`);
    })().then(
      () => callback?.(),
      (err: unknown) => callback?.(err),
    );
  }

  /** Ends every session of an account (all devices), except `keepSid` when given. Resolves how many. */
  async destroyAccountSessions(accountId: string, keepSid?: string): Promise<number> {
    const prefix = `a:${accountId}:`;
    let ended = 0;
    // `list` is bounded: loop until no indexed session is left (a handful in practice).
    for (;;) {
      const keys = (await this.cache.list(prefix, { limit: 1000 })).filter((k) => k !== prefix + keepSid);
      if (keys.length === 0) return ended;
      for (const key of keys) {
        await this.cache.delete(`s:${key.slice(prefix.length)}`);
        await this.cache.delete(key);
        ended++;
      }
    }
  }
}

function parse(raw: string): SessionData | null {
  try {
    return JSON.parse(raw) as SessionData;
  } catch {
    return null;
  }
}

function ttlOf(session: SessionData): number {
  const expires = session.cookie?.expires;
  const at = expires ? new Date(expires).getTime() : NaN;
  return Number.isFinite(at) ? Math.max(1000, at - Date.now()) : DEFAULT_TTL_MS;
}
