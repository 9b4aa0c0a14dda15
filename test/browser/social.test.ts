import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { FakeXServer } from '../support/fake-x-server';
import {
  describeWithBrowser,
  freePort,
  hasText,
  openBrowser,
  screenshot,
  startConsoleServer,
  type ConsoleBrowser,
  type ConsoleServer,
} from './browser-support';

const CLIENT_ID = 'console-test-client';
const CLIENT_SECRET = `secret-${randomBytes(8).toString('hex')}`;

/**
 * The social page in a real browser against a real service and the fake X server: the browser
 * goes to X's authorize page and back through the callback with its own session cookie, then a
 * person writes drafts, sees the guardrails' verdict and reasons, approves, cancels and publishes.
 */
describeWithBrowser('the social page of the console in Chromium', () => {
  let server: ConsoleServer;
  let browser: ConsoleBrowser;
  let page: Page;
  const fake = new FakeXServer({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });

  jest.setTimeout(120_000);

  beforeAll(async () => {
    const urls = await fake.start();
    // X sends the browser back to PUBLIC_BASE_URL/api/x/callback: the origin must be known first.
    const port = await freePort();
    server = await startConsoleServer({
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      ALLOW_LOOPBACK_HTTP: 'true',
      X_API_BASE_URL: urls.apiBaseUrl,
      X_AUTH_BASE_URL: urls.authBaseUrl,
      X_CLIENT_ID: CLIENT_ID,
      X_CLIENT_SECRET: CLIENT_SECRET,
      SOCIAL_PUBLISH_INTERVAL_MS: '3600000',
      SOCIAL_BLOCKED_WORDS: 'darn',
    });
    browser = await openBrowser();
    page = browser.page;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake.close();
  });

  async function api<T>(path: string): Promise<T> {
    const res = await page.request.get(`${server.url}${path}`);
    expect(res.status()).toBe(200);
    return (await res.json()) as T;
  }

  const draftCard = (text: string) => page.locator('li.draft').filter({ hasText: text });
  const queueCard = (text: string) => page.locator('li.queue-item').filter({ hasText: text });

  it('connects an X account through X and back', async () => {
    await page.goto(`${server.url}/signup`);
    await page.getByLabel('Email').fill(`social-${Date.now()}@example.com`);
    await page.getByLabel('Password (at least 8 characters)').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Social', exact: true })
      .click();
    await page.getByRole('heading', { name: 'Social' }).waitFor();
    await page.getByText('No X account yet').waitFor();
    await page.getByRole('button', { name: 'Connect an X account' }).click();
    // Back from X on the page that asked, signed in, with the account listed.
    await page.waitForURL(`${server.url}/social`);
    await page.getByText('@fake_x_user').waitFor();
    expect(fake.stats.codeExchanges).toBe(1);
    const accounts = await api<{ accounts: { username: string }[] }>('/api/x/accounts');
    expect(accounts.accounts.map((a) => a.username)).toEqual(['fake_x_user']);
  });

  it('shows the guardrails: a blocked draft with its reason cannot be approved', async () => {
    await page.getByLabel('Text').fill('What a darn good release');
    await page.getByRole('button', { name: 'Save draft' }).click();
    const blocked = draftCard('What a darn good release');
    await hasText(blocked, 'blocked word: darn');
    await hasText(blocked.locator('.status').first(), 'block');
    expect(await blocked.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
    await blocked.getByRole('button', { name: 'Reject' }).click();
    await blocked.waitFor({ state: 'detached' });
  });

  it('approves a draft, cancels it in the queue, approves another and publishes it now', async () => {
    await page.getByLabel('Text').fill('Release 2.0 is out today');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await hasText(draftCard('Release 2.0 is out today').locator('.status').first(), 'pass');
    await draftCard('Release 2.0 is out today').getByRole('button', { name: 'Approve' }).click();
    const first = queueCard('Release 2.0 is out today');
    await hasText(first.locator('.status').first(), 'queued');
    await first.getByRole('button', { name: 'Cancel' }).click();
    await hasText(first.locator('.status').first(), 'canceled');

    await page.getByLabel('Text').fill('Thanks to everyone who tried the beta');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await draftCard('Thanks to everyone who tried the beta').getByRole('button', { name: 'Approve' }).click();
    const second = queueCard('Thanks to everyone who tried the beta');
    await hasText(second.locator('.status').first(), 'queued');
    await screenshot(page, 'social');
    await second.getByRole('button', { name: 'Publish now' }).click();
    await hasText(second.locator('.status').first(), 'published');
    await hasText(page.locator('.notice'), /^Published: post \d+/);

    // X got exactly the approved post, and the API agrees on both items.
    expect(fake.tweets.map((t) => t.text)).toEqual(['Thanks to everyone who tried the beta']);
    const queue = await api<{ queue: { text: string; publish_status: string; postId: string | null }[] }>(
      '/api/x/queue',
    );
    const byText = Object.fromEntries(queue.queue.map((q) => [q.text, q]));
    expect(byText['Release 2.0 is out today']?.publish_status).toBe('canceled');
    expect(byText['Thanks to everyone who tried the beta']).toMatchObject({
      publish_status: 'published',
      postId: fake.tweets[0]!.id,
    });
    expect(browser.pageErrors).toEqual([]);
  });
});
