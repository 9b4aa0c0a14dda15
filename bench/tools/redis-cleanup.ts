import { Redis } from 'ioredis';

/** Deletes the Redis keys of this run: the bare server's prefix, and every key naming one of its agents. */
export async function cleanRedis(
  url: string,
  runPrefix: string,
  agentIds: readonly string[],
): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let deleted = 0;
  try {
    const ids = new Set(agentIds);
    // Agent ids appear whole between separators (`tools:mem:<id>:key`, `rl:tool-call:<id>`).
    const ours = (key: string) =>
      key.startsWith(runPrefix) || key.split(/[:|]/).some((part) => ids.has(part));
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'COUNT', 2000);
      cursor = next;
      const doomed = keys.filter(ours);
      if (doomed.length > 0) deleted += await redis.del(...doomed);
    } while (cursor !== '0');
  } finally {
    await redis.quit().catch(() => undefined);
  }
  return deleted;
}
