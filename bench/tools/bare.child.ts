import { createSecretKey } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Redis } from 'ioredis';
import jwt from 'jsonwebtoken';
import { verifyOwnHs256 } from '../../actors/identity/hs256';

/**
 * The reference of `bench:mcp`: a bare Express handler on `POST /mcp` doing what `mem_set` and
 * `mem_get` do in Redis (one SET with the 7-day TTL, one GET), after verifying the bearer JWT's
 * signature exactly as the service does (its direct HS256 check, jsonwebtoken for any other token
 * shape; the secret as a KeyObject), with the same Redis client option (auto-pipelining), so the
 * baseline gets every shortcut the service has. It does not check revocations, validate input
 * beyond the tool name, or run any middleware but `express.json()`.
 * Keys: `BENCH_REDIS_PREFIX` + agent + key. Env: REDIS_URL, JWT_SECRET. IPC like service.child.
 */
const SEVEN_DAYS = 7 * 24 * 3600;

async function main(): Promise<void> {
  const prefix = process.env.BENCH_REDIS_PREFIX ?? 'bench:mcp:bare:';
  const key = createSecretKey(Buffer.from(process.env.JWT_SECRET ?? '', 'utf8'));
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
    lazyConnect: true,
    enableAutoPipelining: true,
  });
  await redis.connect();
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '1mb' }));
  app.post('/mcp', (req, res) => {
    const header = req.headers.authorization ?? '';
    let sub: string;
    try {
      const token = header.slice(7);
      const fast = verifyOwnHs256(token, key, Math.floor(Date.now() / 1000));
      if (fast.kind === 'invalid' || fast.kind === 'expired') throw new Error(fast.kind);
      const claims =
        fast.kind === 'valid'
          ? fast.payload
          : (jwt.verify(token, key, { algorithms: ['HS256'] }) as Record<string, unknown>);
      sub = String(claims.sub);
    } catch {
      res.status(401).json({ success: false, error: 'Unauthorized', code: 'UNAUTHORIZED' });
      return;
    }
    const body = req.body as { tool?: string; input?: { key?: string; value?: unknown } };
    const k = `${prefix}${sub}:${String(body.input?.key)}`;
    if (body.tool === 'mem_set') {
      redis.set(k, JSON.stringify(body.input?.value ?? null), 'EX', SEVEN_DAYS).then(
        () => res.json({ success: true, result: true }),
        () => res.status(503).json({ success: false, code: 'UNAVAILABLE' }),
      );
    } else if (body.tool === 'mem_get') {
      redis.get(k).then(
        (v) =>
          res.json({
            success: true,
            result:
              v === null ? { value: null, found: false } : { value: JSON.parse(v) as unknown, found: true },
          }),
        () => res.status(503).json({ success: false, code: 'UNAVAILABLE' }),
      );
    } else res.status(404).json({ success: false, code: 'NOT_FOUND' });
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
