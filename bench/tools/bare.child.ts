import type { AddressInfo } from 'node:net';
import express from 'express';
import { bearerSubject, memCall, referenceSetup, UNAUTHORIZED } from './bare-mem';

/**
 * The reference of `bench:mcp`: a bare Express handler on `POST /mcp` doing what `mem_set` and
 * `mem_get` do in Redis (bare-mem.ts: one SET with the 7-day TTL, one GET), after verifying the
 * bearer JWT's signature exactly as the service does, with the same Redis client option
 * (auto-pipelining), so the baseline gets every shortcut the service has on that path. It is served
 * as Express usually is (`app.listen`), without the front door's request classes
 * (src/http/request-classes.ts), which made this same handler about 1.9 times as fast in one trial
 * (docs/architecture.md, "Request objects"): the reference is Express as people run it. It does
 * not check revocations, validate input beyond the tool name, or run any middleware but
 * `express.json()`.
 * Keys: `BENCH_REDIS_PREFIX` + agent + key. Env: REDIS_URL, JWT_SECRET. IPC like service.child.
 */
async function main(): Promise<void> {
  const { prefix, key, sealer, redis } = await referenceSetup('bench:mcp:bare:');
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '1mb' }));
  app.post('/mcp', (req, res) => {
    const sub = bearerSubject(req.headers.authorization, key, sealer);
    const answer = sub === undefined ? Promise.resolve(UNAUTHORIZED) : memCall(redis, prefix, sub, req.body);
    void answer.then(({ status, body }) => res.status(status).json(body));
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  process.send?.({ event: 'ready', url: `http://127.0.0.1:${port}` });

  const stop = () => {
    server.closeAllConnections();
    server.close();
    void redis.quit().finally(() => process.exit(0));
  };
  process.on('message', (m: { cmd?: string }) => {
    if (m?.cmd === 'stop') stop();
  });
  process.on('disconnect', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench bare server: ${String(err)}\n`);
  process.exit(1);
});
