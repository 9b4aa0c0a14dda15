import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { startRuntime, type Runtime } from '../../src/boot/runtime';
import { loadConfig } from '../../src/config/load-config';
import { silentLogger } from '../../src/logging/logger';

const { buildConsole, consoleNeedsBuild } = require('../../scripts/build-console.js') as {
  buildConsole: () => boolean;
  consoleNeedsBuild: () => boolean;
};

/** Debian's chromium (`.ci/run` installs it); CHROMIUM_PATH names another one. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** The flags a headless Chromium needs on this kind of machine (root, no GPU, no network chatter). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-quic',
  '--disable-sync',
];

/**
 * `describe` when Chromium is installed; otherwise skipped with the reason, and a failing test
 * under REQUIRE_SERVICES=1 (CI must run the browser suite).
 */
export function describeWithBrowser(title: string, fn: () => void): void {
  if (fs.existsSync(CHROMIUM)) {
    describe(title, fn);
    return;
  }
  if (process.env.REQUIRE_SERVICES === '1') {
    describe(title, () => {
      it('needs Chromium', () => {
        throw new Error(`REQUIRE_SERVICES=1 but no Chromium at ${CHROMIUM} (apt-get install chromium)`);
      });
    });
    return;
  }
  describe.skip(`${title} (no Chromium at ${CHROMIUM}: skipped)`, fn);
}

/** A service of its own (embedded stores in a temp DATA_DIR) with the console built. */
export interface ConsoleServer {
  runtime: Runtime;
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

export async function startConsoleServer(env: Record<string, string> = {}): Promise<ConsoleServer> {
  if (consoleNeedsBuild() && !buildConsole()) throw new Error('the console could not be built');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-console-'));
  // PORT may be fixed by a test that must know its origin beforehand (PUBLIC_BASE_URL for OAuth).
  const runtime = await startRuntime(
    loadConfig({ ...env, DATA_DIR: dataDir, PORT: env.PORT ?? '0' }),
    silentLogger,
  );
  return {
    runtime,
    url: runtime.http!.url,
    dataDir,
    async stop() {
      await runtime.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A loopback port free right now (the OS picks it; it is released before the caller binds it). */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Headless Chromium with a fresh profile; page errors are collected so that a test can assert none. */
export interface ConsoleBrowser {
  context: BrowserContext;
  page: Page;
  pageErrors: string[];
  close(): Promise<void>;
}

export async function openBrowser(width = 1200, height = 800): Promise<ConsoleBrowser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width, height },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('console', (msg) => {
    // A CSP refusal is reported on the console: the console must need nothing the CSP forbids.
    if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) pageErrors.push(msg.text());
  });
  page.setDefaultTimeout(30_000);
  return {
    context,
    page,
    pageErrors,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Screenshots for docs/console.md, only when asked (CONSOLE_SCREENSHOTS=<folder>). */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.CONSOLE_SCREENSHOTS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: false });
}

/**
 * Waits until the element's text matches (a substring, or a pattern), as a person would wait for
 * the page to change; fails with the last text seen. (`playwright-core` has no `expect` of its own.)
 */
export async function hasText(
  locator: Locator,
  expected: string | RegExp,
  timeoutMs = 30_000,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    last = await locator
      .first()
      .innerText({ timeout: Math.max(1, until - Date.now()) })
      .catch(() => last);
    if (typeof expected === 'string' ? last.includes(expected) : expected.test(last)) return;
    if (Date.now() > until)
      throw new Error(`expected ${String(expected)} in the page, last saw: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Another account, an enterprise one, that publishes an app through the API (the console's
 * operator installs it). Returns `publish(version)`, answering the HTTP response.
 */
export async function appPublisher(
  url: string,
  app: { name: string; permissions: string[]; requiredSecrets: string[]; requiredSkills: string[] },
): Promise<(version: string) => Promise<Response>> {
  const signup = await fetch(`${url}/api/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: `publisher-${Date.now()}@example.com`,
      password: 'correct horse battery',
      accountType: 'enterprise',
      selectedPlan: 'enterprise_plus',
    }),
  });
  const { credentials } = (await signup.json()) as { credentials: { bearerToken: string } };
  return (version) =>
    fetch(`${url}/api/apps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${credentials.bearerToken}` },
      body: JSON.stringify({
        name: app.name,
        category: 'Research',
        description: 'Daily reports from your files',
        releaseNotes: `Version ${version}`,
        manifest: {
          schemaVersion: 1,
          version,
          runtime: 'web',
          entrypoint: 'index.html',
          permissions: app.permissions,
          requiredSecrets: app.requiredSecrets,
          requiredSkills: app.requiredSkills,
          distribution: { webUrl: 'https://example.com/app' },
        },
      }),
    });
}

/** Signs up through the console's form with the plan whose radio label matches, and waits for the dashboard. */
export async function signUpInConsole(
  page: Page,
  baseUrl: string,
  label: string,
  plan: RegExp,
): Promise<void> {
  await page.goto(`${baseUrl}/signup`);
  await page.getByLabel('Email').fill(`${label}-${Date.now()}@example.com`);
  await page.getByLabel('Password (at least 8 characters)').fill('correct horse battery');
  await page.getByRole('radio', { name: plan }).check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
}
