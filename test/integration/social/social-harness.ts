import { randomBytes } from 'node:crypto';
import { FakeXServer } from '../../support/fake-x-server';
import {
  startVaultHarness,
  type Account,
  type VaultClient,
  type VaultHarness,
} from '../vault/support/vault-harness';

export const CLIENT_ID = 'test-client';
export const CLIENT_SECRET = `secret-${randomBytes(8).toString('hex')}`;
export const CRON_SECRET = `cron-${randomBytes(12).toString('hex')}`;

export interface SocialHarness {
  h: VaultHarness;
  fake: FakeXServer;
  stop(): Promise<void>;
}

/**
 * A runtime pointed at a fresh fake X server (loopback allowed, as the tests' switch permits),
 * with short retries so that failures play out within a test. The publisher's timer is slow
 * (an hour): tests run the duty through `POST /api/ops/crew/cron`, as an ops cron would.
 */
export async function startSocialHarness(env: Record<string, string> = {}): Promise<SocialHarness> {
  const fake = new FakeXServer({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  const urls = await fake.start();
  const h = await startVaultHarness({
    env: {
      ALLOW_LOOPBACK_HTTP: 'true',
      X_API_BASE_URL: urls.apiBaseUrl,
      X_AUTH_BASE_URL: urls.authBaseUrl,
      X_CLIENT_ID: CLIENT_ID,
      X_CLIENT_SECRET: CLIENT_SECRET,
      CRON_SECRET,
      SOCIAL_PUBLISH_INTERVAL_MS: '3600000',
      SOCIAL_RETRY_BASE_MS: '20',
      SOCIAL_PUBLISH_MAX_ATTEMPTS: '3',
      SOCIAL_BLOCKED_WORDS: 'darn',
      SOCIAL_BLOCKED_DOMAINS: 'bad.example',
      ...env,
    },
  });
  return {
    h,
    fake,
    stop: async () => {
      await h.stop();
      h.cleanup();
      await fake.close();
    },
  };
}

/**
 * Connects the fake X account for `who`: connect, follow X's authorize redirect (the fake
 * approves at once), then the callback with the same credentials. Resolves the account id.
 */
export async function connectX(
  h: { api: VaultClient },
  who: Account,
): Promise<{ id: string; location: string }> {
  const connect = await h.api.post('/api/x/connect', who.auth, { redirectTo: '/settings/social?tab=x' });
  if (connect.status !== 200) throw new Error(`connect: ${connect.status} ${connect.text}`);
  const authorize = await fetch(connect.body.authorizationUrl as string, { redirect: 'manual' });
  const back = new URL(authorize.headers.get('location')!);
  const callback = await h.api.get(`${back.pathname}${back.search}`, who.auth);
  if (callback.status !== 302) throw new Error(`callback: ${callback.status} ${callback.text}`);
  const accounts = await h.api.get('/api/x/accounts', who.auth);
  return { id: accounts.body.accounts[0].id as string, location: callback.headers.location as string };
}

/** Runs every duty once, as ops cron does. */
export function cron(h: VaultHarness) {
  return h.api.post('/api/ops/crew/cron', `Bearer ${CRON_SECRET}`);
}
