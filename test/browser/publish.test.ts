import type { Page } from 'playwright-core';
import {
  describeWithBrowser,
  hasText,
  openBrowser,
  screenshot,
  startConsoleServer,
  type ConsoleBrowser,
  type ConsoleServer,
  signUpInConsole,
} from './browser-support';

/**
 * App publishing in a real browser: an enterprise account sees the page (a retail one does not),
 * publishes an app and a new version, and a version already published shows the API's own error.
 */
describeWithBrowser('app publishing in the console in Chromium', () => {
  let server: ConsoleServer;
  let browser: ConsoleBrowser;
  let page: Page;

  jest.setTimeout(120_000);

  beforeAll(async () => {
    server = await startConsoleServer();
    browser = await openBrowser();
    page = browser.page;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const nav = () => page.getByRole('navigation', { name: 'Main' });

  const signUp = (plan: RegExp) => signUpInConsole(page, server.url, 'publisher', plan);

  it('shows the page to enterprise accounts only', async () => {
    await signUp(/^Pro/);
    await nav().getByRole('link', { name: 'Apps', exact: true }).waitFor();
    expect(await nav().getByRole('link', { name: 'Publish', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/signin/);
    await signUp(/^Enterprise \(/);
    await nav().getByRole('link', { name: 'Publish', exact: true }).click();
    await page.getByRole('heading', { name: 'Publish an app' }).waitFor();
  });

  it('publishes an app, then a new version, and shows the API error for a version already there', async () => {
    await page.getByLabel('Name').fill('Report Builder');
    await page.getByLabel('Category').selectOption('Data');
    await page.getByLabel('Description').fill('Weekly reports from your files');
    await page.getByLabel('Web address (optional)').fill('https://example.com/report-builder');
    await page.getByLabel('Permissions (comma-separated)').fill('files:read');
    await screenshot(page, 'publish');
    await page.getByRole('button', { name: 'Publish' }).click();
    await hasText(page.locator('.notice'), 'Published: report-builder 1.0.0');

    await page.getByLabel('Version (semver)').fill('1.1.0');
    await page.getByRole('button', { name: 'Publish' }).click();
    await hasText(page.locator('.notice'), 'New version published: report-builder 1.1.0');

    const res = await page.request.get(`${server.url}/api/apps/report-builder`);
    expect(res.status()).toBe(200);
    const { app } = (await res.json()) as { app: { version: string; category: string } };
    expect(app).toMatchObject({ version: '1.1.0', category: 'Data' });

    await page.getByRole('button', { name: 'Publish' }).click();
    // The API's own words and code, as it sent them.
    await hasText(
      page.getByRole('alert'),
      'manifest.version 1.1.0 must be greater than the latest version 1.1.0 (CONFLICT)',
    );
    expect(browser.pageErrors).toEqual([]);
  });
});
