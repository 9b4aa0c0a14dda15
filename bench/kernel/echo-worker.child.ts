/**
 * A worker node of the kernel benchmark in its own process (as in production: the api and the
 * worker do not share an event loop): an actor system on the AMQP transport hosting the echo actor.
 *
 * Environment: AMQP_URL, AMQP_PREFIX, NODE_ID, KIND, PREFETCH (64),
 * DEDUPE = 'memory' (default) | 'layered' (LayeredDedupeStore over CacheDedupeStore),
 * KIND_DEDUPE = 'local' (default) | 'shared', REDIS_URL (layered: Redis; unset = memory cache),
 * CACHE_NAMESPACE (layered: key prefix of the records).
 *
 * IPC: `{ event: 'ready', cache }` once consuming; `{ cmd: 'stop' }` stops it.
 */
import { createActorSystem, LayeredDedupeStore, type DedupeStore } from '../../src/kernel';
import { silentLogger } from '../../src/logging/logger';
import { CacheDedupeStore, MemoryCache, RedisCache, type CachePort } from '../../src/store/cache';
import { AmqpTransport } from '../../src/transport/amqp/amqp.transport';
import { onStopRequest, tell } from './children';
import { echoActor } from './echo-actor';

const env = process.env;

async function main(): Promise<void> {
  const transport = new AmqpTransport({
    url: env.AMQP_URL!,
    prefix: env.AMQP_PREFIX!,
    nodeId: env.NODE_ID!,
    prefetch: Number(env.PREFETCH || 64),
    connectionName: `${env.AMQP_PREFIX}:${env.NODE_ID}`,
  });
  let cache: CachePort | undefined;
  let dedupe: DedupeStore | undefined;
  let closeDedupe = () => {};
  if (env.DEDUPE === 'layered') {
    cache = env.REDIS_URL
      ? await RedisCache.connect(env.REDIS_URL, { logger: silentLogger })
      : new MemoryCache();
    // Records of a benchmark need not outlive it by much.
    const shared = new CacheDedupeStore(cache.namespace(env.CACHE_NAMESPACE!), { doneTtlMs: 120_000 });
    dedupe = new LayeredDedupeStore({ shared });
    closeDedupe = () => shared.close();
  }
  const system = createActorSystem({ transport, logger: silentLogger, dedupe });
  await system.register(echoActor(env.KIND!, env.KIND_DEDUPE === 'shared' ? 'shared' : 'local'));
  await system.start();
  onStopRequest(async () => {
    await system.stop(2000);
    closeDedupe();
    await cache?.close();
  });
  await tell({ event: 'ready', cache: cache?.kind ?? 'none' });
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
