import type { Page } from 'playwright-core';
import {
  describeWithBrowser,
  appPublisher,
  hasText,
  openBrowser,
  screenshot,
  startConsoleServer,
  type ConsoleBrowser,
  type ConsoleServer,
} from './browser-support';

/**
 * The operator console in a real browser (headless Chromium) against a real service started in
 * this process: each test drives the pages a person would use and checks what the API recorded.
 * The tests run in order and share one signed-in browser, as one operator's session would.
 */
describeWithBrowser('the operator console in Chromium', () => {
  let server: ConsoleServer;
  let browser: ConsoleBrowser;
  let page: Page;
  const email = `operator-${Date.now()}@example.com`;

  jest.setTimeout(120_000);

  beforeAll(async () => {
    // The operator is an ops admin too, so that the operations page shows its details.
    server = await startConsoleServer({ ADMIN_EMAILS: email });
    browser = await openBrowser();
    page = browser.page;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** What the API says, with the browser's own session cookie. */
  async function api<T>(path: string): Promise<T> {
    const res = await page.request.get(`${server.url}${path}`);
    expect(res.status()).toBe(200);
    return (await res.json()) as T;
  }

  /** Follows a link of the main navigation (pages link to each other too). */
  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

  const status = () => page.locator('h1 + p .status').first();

  it('signs up with a plan and lands on the dashboard', async () => {
    await page.goto(`${server.url}/`);
    await page.waitForURL(/\/signin/);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password (at least 8 characters)').fill('correct horse battery');
    await page.getByLabel('Display name (optional)').fill('Ada Operator');
    await page.getByRole('radio', { name: /Pro/ }).check();
    await screenshot(page, 'signup');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByText('Ada Operator').first().waitFor();
    const session = await api<{ authenticated: boolean; session: { plan: string } }>('/api/session');
    expect(session).toMatchObject({ authenticated: true, session: { plan: 'retail_pro' } });
    await screenshot(page, 'dashboard');
  });

  it('runs a Studio command only after its confirm', async () => {
    await nav('Studio');
    const command = page.getByLabel('Command');
    await command.fill('tool run mem_set --json {"key":"greeting","value":"hello"}');
    await page.getByRole('button', { name: 'Run' }).click();
    await page
      .getByText(/^preview/)
      .first()
      .waitFor();
    // Nothing ran yet: the key is not there.
    expect(JSON.stringify(await api('/api/memory'))).not.toContain('greeting');
    await page.getByRole('button', { name: 'Confirm and run' }).click();
    await page.locator('.kind-result').first().waitFor();
    await hasText(page.locator('.kind-result').first(), 'result');
    await screenshot(page, 'studio');
  });

  it('renders the intent stream as its events arrive', async () => {
    await page.getByLabel('Message').fill('list tools');
    await page.getByRole('button', { name: 'Send' }).click();
    const stream = page.getByTestId('intent-stream');
    await stream.locator('[data-event="execution"]').waitFor();
    await stream.locator('[data-event="reply"]').waitFor();
    await stream.locator('[data-event="done"]').waitFor();
    await hasText(stream.locator('[data-event="done"]'), 'COMPLETED');
  });

  it('starts a demo execution, follows it live, pauses and resumes it', async () => {
    await nav('Dashboard');
    await page.getByLabel('Steps').fill('4');
    await page.getByLabel('Delay per step (ms)').fill('1500');
    await page.getByRole('button', { name: 'Start demo' }).click();
    await page.waitForURL(/\/executions\/exe_/);
    const id = page.url().split('/').pop()!;
    // Log lines arrive over SSE while the page stays put.
    await page.getByTestId('logs').getByText('Step 1 "write demo-1" completed').waitFor();
    await hasText(page.getByTestId('live-state'), /^live$/);
    await page.getByRole('button', { name: 'Pause' }).click();
    await hasText(status(), /^PAUSED$/);
    const paused = await api<{ execution: { status: string; progress: { completedSteps: number } } }>(
      `/api/executions/${id}`,
    );
    expect(paused.execution.status).toBe('PAUSED');
    expect(paused.execution.progress.completedSteps).toBeLessThan(5);
    await screenshot(page, 'execution-paused');
    await page.getByRole('button', { name: 'Resume' }).click();
    await hasText(status(), /^COMPLETED$/, 60_000);
    await page.getByTestId('logs').getByText('Resumed', { exact: false }).first().waitFor();
    // The rollback says what it undid and what it could not.
    await page.getByRole('button', { name: 'Rollback' }).click();
    const rollback = page.getByTestId('rollback');
    await hasText(rollback, 'Undone (4)');
    await hasText(rollback, 'Not undone (1)');
    await screenshot(page, 'execution');
  });

  it('presses panic: the running execution is cancelled and the lockdown shown, then lifted', async () => {
    await nav('Dashboard');
    await page.getByLabel('Steps').fill('10');
    await page.getByLabel('Delay per step (ms)').fill('3000');
    await page.getByRole('button', { name: 'Start demo' }).click();
    await page.waitForURL(/\/executions\/exe_/);
    const id = page.url().split('/').pop()!;
    await hasText(status(), /^RUNNING$/);

    await nav('Panic');
    await page.getByRole('button', { name: 'Panic', exact: true }).click();
    const dialog = page.getByRole('alertdialog');
    expect(await dialog.getByRole('button', { name: 'Stop everything' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Type PANIC to confirm').fill('PANIC');
    await dialog.getByRole('button', { name: 'Stop everything' }).click();
    await hasText(page.getByTestId('panic-result'), `${id}: CANCELLED`);
    await page.getByTestId('lockdown-banner').waitFor();
    const stopped = await api<{ execution: { status: string } }>(`/api/executions/${id}`);
    expect(stopped.execution.status).toBe('CANCELLED');
    await screenshot(page, 'panic');

    await page.getByRole('button', { name: 'Lift the lockdown' }).click();
    await page.getByTestId('lockdown-banner').waitFor({ state: 'detached' });
    const workspaces = await api<{ workspaces: { id: string; isDefault: boolean }[] }>('/api/workspaces');
    const ws = workspaces.workspaces.find((w) => w.isDefault)!;
    expect(await api(`/api/panic?workspaceId=${ws.id}`)).toMatchObject({ lockdown: false });
  });

  it('creates a token, shows it once, then only masked', async () => {
    await nav('Tokens');
    await page.getByLabel('Name').fill('ci deploy');
    await page.getByLabel('workflow').check();
    await page.getByRole('button', { name: 'Create token' }).click();
    const value = await page.getByTestId('token-value').inputValue();
    expect(value.length).toBeGreaterThan(40);
    await page.getByRole('button', { name: 'I stored it: hide' }).click();
    const row = page.getByTestId('token-ci deploy');
    await hasText(row, 'workflow');
    const masked = await row.getByTestId('masked').innerText();
    expect(masked).not.toBe(value);
    expect(await page.content()).not.toContain(value);
    // The value works as a bearer token outside the browser.
    const res = await fetch(`${server.url}/api/executions?limit=1`, {
      headers: { authorization: `Bearer ${value}` },
    });
    expect(res.status).toBe(200);
    await screenshot(page, 'tokens');
  });

  it('installs a skill from the store and uses its capability', async () => {
    await nav('Skills');
    await page.getByLabel('Search skills').fill('text statistics');
    await page.getByTestId('skill-text-stats').click();
    const detail = page.getByTestId('skill-detail');
    await detail.getByRole('button', { name: 'Install' }).click();
    await detail.getByRole('button', { name: 'Run' }).click();
    await hasText(page.getByTestId('skill-result'), '"words"');
    const installed = await api<{ installed_skills: { skill: { slug: string } }[] }>('/api/skills/installed');
    expect(installed.installed_skills.map((i) => i.skill.slug)).toContain('text-stats');
    await screenshot(page, 'skills');
  });

  it('stores a secret, installs an app once ready, updates it and rolls it back', async () => {
    // Another account (an enterprise one) publishes the app through the API.
    const publish = await appPublisher(server.url, {
      name: 'Report Desk',
      permissions: ['files:read'],
      requiredSecrets: ['REPORT_KEY'],
      requiredSkills: ['text-stats'],
    });
    expect((await publish('1.0.0')).status).toBe(201);

    await nav('Vault');
    await page.getByLabel('Name (A-Z, 0-9, _)').fill('REPORT_KEY');
    await page.getByLabel('Value').fill('report-key-value-0123456789');
    await page.getByRole('button', { name: 'Store secret' }).click();
    await hasText(page.locator('.cards'), 'REPORT_KEY');
    // The value is never shown back: only its mask.
    expect(await page.content()).not.toContain('report-key-value-0123456789');
    await page.getByLabel('Secret', { exact: true }).selectOption({ label: 'REPORT_KEY' });
    await page.getByLabel('Subject type').selectOption('app');
    await page.getByLabel('Subject id').fill('report-desk');
    await page.getByRole('button', { name: 'Assign' }).click();
    await hasText(page.locator('.card', { hasText: 'Assignments' }), 'REPORT_KEY → app:report-desk');
    await page.getByRole('button', { name: 'Rotate' }).click();
    await page.getByLabel('New value of REPORT_KEY').fill('report-key-value-rotated-987654');
    await page.getByRole('button', { name: 'Rotate' }).last().click();
    await hasText(page.locator('.cards'), 'v2');

    await nav('Apps');
    await page.getByRole('button', { name: 'Report Desk' }).click();
    const detail = page.locator('.card.detail');
    // Secret assigned and skill installed: only the permissions are missing before the install.
    await hasText(detail, 'missing permissions files:read, secrets:REPORT_KEY');
    await detail.getByRole('button', { name: 'Install' }).click();
    await hasText(detail, 'ready');
    await hasText(page.locator('.card', { hasText: 'Installed' }).first(), 'ready');

    expect((await publish('1.1.0')).status).toBe(200);
    await page.reload();
    await page.getByRole('button', { name: 'Update all' }).click();
    await hasText(page.getByRole('status'), 'Updated report-desk 1.0.0 → 1.1.0');
    await page.getByRole('button', { name: 'Roll back' }).click();
    await hasText(page.getByRole('status'), 'report-desk rolled back to 1.0.0');
    const installed = await api<{
      installedApps: { slug: string; installation: { installedVersion: string } }[];
    }>('/api/apps/installed');
    expect(installed.installedApps).toEqual([
      expect.objectContaining({
        slug: 'report-desk',
        installation: expect.objectContaining({ installedVersion: '1.0.0' }),
      }),
    ]);
    await screenshot(page, 'apps');
  });

  it('uploads a file and previews it', async () => {
    await nav('Files');
    await page.getByLabel('File', { exact: true }).setInputFiles({
      name: 'hello.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Hello from the browser\nsecond line\n'),
    });
    await page.getByRole('button', { name: 'Upload' }).click();
    await hasText(page.getByTestId('file-preview'), 'Hello from the browser');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('New path').fill('notes/hello.txt');
    await page.getByRole('button', { name: 'Move' }).click();
    await page.getByRole('button', { name: 'notes/hello.txt' }).waitFor();
    const files = await api<{ entries: { path: string }[] }>('/api/files');
    expect(files.entries.map((f) => f.path)).toEqual(['notes/hello.txt']);
    await screenshot(page, 'files');
  });

  it('draws the operations charts from the metrics', async () => {
    await nav('Ops');
    const byStatus = page.getByRole('img', { name: 'Executions by status' });
    await byStatus.waitFor();
    // One bar per status; the cancelled and completed executions of the tests above are counted.
    expect(await byStatus.locator('rect').count()).toBe(6);
    await hasText(page.locator('figure', { has: byStatus }), /CANCELLED\s*1/);
    // Latency percentiles per route, for the ops admin.
    const latency = page.getByRole('img', { name: 'p95 latency by route (ms)' });
    expect(await latency.locator('rect').count()).toBeGreaterThan(0);
    await screenshot(page, 'ops');
  });

  it('shows the unread count in the header and fits a 375 px screen', async () => {
    const unread = await api<{ notifications: unknown[] }>('/api/notifications?status=unread');
    await page.goto(`${server.url}/notifications`);
    await hasText(page.getByTestId('unread-count'), new RegExp(`^${unread.notifications.length}$`));
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: 'Menu' }).click();
    await nav('Executions');
    await page.getByRole('heading', { name: 'Executions' }).waitFor();
    // Run in the page (a string: this file is compiled without the DOM's types).
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'mobile-executions');
    await page.setViewportSize({ width: 1200, height: 800 });
  });

  it('needed nothing its CSP forbids and threw no page error', () => {
    expect(browser.pageErrors).toEqual([]);
  });
});
