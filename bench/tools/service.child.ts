import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startRuntime } from '../../src/boot/runtime';
import { loadConfig } from '../../src/config/load-config';
import { REGISTER_RATE_LIMIT } from '../../actors/identity/agents.route';
import { createLogger } from '../../src/logging/logger';
import { createRateLimiter } from '../../src/store/cache';
import { stopWhenAsked } from '../support/runtime-child';
import { ClaimsSealer } from '../../actors/identity/sealed-claims';

/**
 * One node of the service for `bench:mcp`, configured by its environment (ROLE, AMQP_URL,
 * AMQP_PREFIX, REDIS_URL, MONGODB_URL, JWT_SECRET, SANDBOX_THREADS…) on a temporary DATA_DIR and
 * port 0, with the per-agent rate limit lifted. A node serving HTTP registers BENCH_AGENTS agents
 * (`POST /register`). IPC: sends `{event: 'ready', url?, tokens, agentIds}`; on `{cmd: 'stop'}`
 * (or when the parent goes away) sends `{event: 'declared', queues, exchanges}` (AMQP names to
 * clean up) and stops.
 */
async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-bench-mcp-'));
  const config = loadConfig({ ...process.env, DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'error' });
  const runtime = await startRuntime(config, createLogger({ level: 'error' }), {
    tools: { rateLimit: { points: 1_000_000_000, durationSec: 60 } },
  });
  const tokens: string[] = [];
  const agentIds: string[] = [];
  const sealer = new ClaimsSealer(runtime.secrets.jwtSecret);
  const payloadOf = (token: string) =>
    JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
  const url = runtime.http?.url;
  const agents = Number(process.env.BENCH_AGENTS ?? 0);
  if (url && agents > 0) {
    const registrations = createRateLimiter(runtime.cache, {
      keyPrefix: `rl:${REGISTER_RATE_LIMIT.name}`,
      points: REGISTER_RATE_LIMIT.points,
      durationSec: REGISTER_RATE_LIMIT.durationSec,
    });
    for (let i = 0; i < agents; i++) {
      // More agents than one address may register per hour: keep its budget fresh.
      if (i % 5 === 0)
        for (const ip of ['127.0.0.1', '::ffff:127.0.0.1']) await registrations.reset(`:${ip}`);
      const res = await fetch(`${url}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `bench-mcp-${i}-${randomBytes(4).toString('hex')}` }),
      });
      const body = (await res.json()) as { token?: string };
      if (res.status !== 201 || !body.token)
        throw new Error(`register: ${res.status} ${JSON.stringify(body)}`);
      tokens.push(body.token);
      // The subject is sealed in the token: opened with the runtime's secret (bench cleanup only).
      agentIds.push(String(sealer.claimsOf(payloadOf(body.token))?.sub));
    }
  }
  process.send?.({ event: 'ready', url, tokens, agentIds });

  stopWhenAsked(runtime, dir, 'declared');
}

main().catch((err: unknown) => {
  process.stderr.write(
    `bench service (${process.env.ROLE ?? 'all'}): ${String((err as Error)?.stack ?? err)}\n`,
  );
  process.exit(1);
});
