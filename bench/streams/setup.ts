import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { Redis } from 'ioredis';
import type { Pool } from 'undici';
import { ClaimsSealer } from '../../actors/identity/sealed-claims';
import { callJson } from './http-client';

/** The URL if it names this machine and answers, else undefined; a remote URL is refused. */
export async function localService(raw: string, defaultPort: number): Promise<string | undefined> {
  const url = new URL(raw);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
    throw new Error(`bench:streams runs against this machine only; refusing ${url.hostname}`);
  }
  const host = url.hostname.replace(/[[\]]/g, '');
  const port = Number(url.port) || defaultPort;
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up ? raw : undefined);
    };
    socket.setTimeout(1500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Deletes the Redis keys naming one of the run's accounts or workspaces (the panic flag if lifting
 * failed, membership caches); rate-limit counters and sessions expire by themselves.
 */
export async function cleanRedis(url: string, given: readonly string[]): Promise<number> {
  const ids = given.filter((id) => id.length >= 8); // never a pattern that matches everything
  if (ids.length === 0) return 0;
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'COUNT', 2000);
      cursor = next;
      const ours = keys.filter((k) => ids.some((id) => k.includes(id)));
      if (ours.length > 0) deleted += await redis.del(...ours);
    } while (cursor !== '0');
  } finally {
    await redis.quit().catch(() => undefined);
  }
  return deleted;
}

/** Signs up an account: its bearer token and its id (the token's subject, for the cleanup). */
export async function signup(
  pool: Pool,
  label: string,
  jwtSecret: string,
): Promise<{ token: string; accountId: string }> {
  const res = await callJson(pool, 'POST', '/api/signup', undefined, {
    email: `bench-streams-${label}-${randomBytes(5).toString('hex')}@example.com`,
    password: 'correct horse battery staple',
    accountType: 'retail',
    selectedPlan: 'retail_pro',
  });
  const token = (res.body as { credentials?: { bearerToken?: string } }).credentials?.bearerToken;
  if (res.status !== 201 || !token) throw new Error(`signup: ${res.status} ${JSON.stringify(res.body)}`);
  // The subject is sealed in the token: opened with the cluster's secret (cleanup only).
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
  const sub = new ClaimsSealer(jwtSecret).claimsOf(payload)?.sub;
  return { token, accountId: typeof sub === 'string' ? sub : '' };
}
