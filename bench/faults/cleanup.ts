import type { Redis } from 'ioredis';
import { DEDUPE_NAMESPACE } from '../../src/boot/dedupe-factory';
import { idempotencyScope, requestFingerprint } from '../../src/http/idempotency/idempotency-key';
import { stableEnvelopeId } from '../../src/kernel';

export interface RedisLeftovers {
  agentIds: readonly string[];
  accountIds: readonly string[];
  /** Keyed `mem_incr` calls: the kernel's dedupe record of each is named after a stable envelope id. */
  keyedCalls: ReadonlyArray<{ client: number; idempotencyKey: string; counterKey: string }>;
}

/**
 * Deletes what the run left in Redis: every key naming one of its agents or its account between
 * separators (`tools:mem:<agent>:…`, `idempotency:agent:<agent>:…`, rate limits, the account's
 * session index `…a:<account>:<sid>` and the session `…s:<sid>` it points to), and the kernel's
 * dedupe records of the keyed calls, whose names are derived from the caller, the key and the call
 * (keyed-tool-call.ts) and name no agent. Other records of the kernel expire on their own (10
 * minutes). Resolves how many keys were deleted.
 */
export async function cleanRedis(redis: Redis, left: RedisLeftovers): Promise<number> {
  const ids = new Set([...left.agentIds, ...left.accountIds]);
  const doomed = new Set<string>();
  for (const call of left.keyedCalls) {
    const agentId = left.agentIds[call.client];
    const scope = idempotencyScope({ subjectType: 'agent', agentId, via: 'bearer' });
    const fingerprint = requestFingerprint(['tools/call', 'mem_incr', null, { key: call.counterKey, by: 1 }]);
    doomed.add(`${DEDUPE_NAMESPACE}${stableEnvelopeId(`${scope}\n${call.idempotencyKey}\n${fingerprint}`)}`);
  }
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'COUNT', 5000);
    cursor = next;
    for (const key of keys) {
      const parts = key.split(/[:|]/);
      if (!parts.some((part) => ids.has(part))) continue;
      doomed.add(key);
      for (const account of left.accountIds) {
        const at = key.indexOf(`a:${account}:`);
        if (at >= 0) doomed.add(`${key.slice(0, at)}s:${key.slice(at + account.length + 3)}`);
      }
    }
  } while (cursor !== '0');
  let deleted = 0;
  const all = [...doomed];
  for (let i = 0; i < all.length; i += 1000) deleted += await redis.del(...all.slice(i, i + 1000));
  return deleted;
}
