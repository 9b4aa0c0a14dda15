import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Page } from 'playwright-core';
import { z } from 'zod';
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

/** What the tiny MCP server saw: the `x-team` header of each request (the connector's sealed header). */
interface TinyMcpServer {
  url: string;
  teamHeaders: Array<string | undefined>;
  stop(): Promise<void>;
}

/**
 * A Streamable HTTP MCP server on 127.0.0.1 with one tool, stateless (a server and a transport per
 * request, no session id), built with the SDK as any outside server would be.
 */
async function startTinyMcpServer(): Promise<TinyMcpServer> {
  const teamHeaders: Array<string | undefined> = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    teamHeaders.push(req.headers['x-team'] as string | undefined);
    if (req.method !== 'POST') {
      res.writeHead(405, { 'content-type': 'application/json', allow: 'POST' }).end('{}');
      return;
    }
    const mcp = new McpServer({ name: 'tiny-dictionary', version: '0.1.0' });
    mcp.registerTool(
      'define',
      {
        title: 'Define a word',
        description: 'Answers the definition of one English word',
        inputSchema: { word: z.string() },
      },
      async ({ word }) => ({ content: [{ type: 'text', text: `${word}: a word` }] }),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    void mcp
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => res.headersSent || res.writeHead(500).end());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    teamHeaders,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The connectors and runtime credentials pages in a real browser: an http connector added against
 * an MCP server started here (its header sealed, never shown back), refreshed, reported down, and
 * deleted after a confirm; a bad URL shows the API's own error. A runtime credential shown once,
 * then only masked, usable by a runtime, then revoked.
 */
describeWithBrowser('connectors and runtime credentials in the console in Chromium', () => {
  let server: ConsoleServer;
  let mcp: TinyMcpServer;
  let browser: ConsoleBrowser;
  let page: Page;

  jest.setTimeout(120_000);

  beforeAll(async () => {
    mcp = await startTinyMcpServer();
    // The MCP server is on loopback: allowed for http connectors only with this switch.
    server = await startConsoleServer({ ALLOW_LOOPBACK_HTTP: 'true' });
    browser = await openBrowser();
    page = browser.page;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await mcp?.stop();
  });

  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

  /** What the API says, with the browser's own session cookie. */
  async function api<T>(path: string): Promise<T> {
    const res = await page.request.get(`${server.url}${path}`);
    expect(res.status()).toBe(200);
    return (await res.json()) as T;
  }

  const signUp = (plan: RegExp) => signUpInConsole(page, server.url, 'connectors', plan);

  it('shows the credentials link only to plans with access_sdk (enterprise)', async () => {
    const link = (name: string) =>
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
    await signUp(/^Pro/);
    await link('Connectors').waitFor();
    expect(await link('Credentials').count()).toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/signin/);
    await signUp(/^Enterprise \(/);
    await link('Credentials').waitFor();
  });

  it("shows the API's refusals next to the form (a bad URL, stdio without an allowlist), saves nothing", async () => {
    await nav('Connectors');
    await page.getByRole('heading', { name: 'Connectors', exact: true }).waitFor();
    await hasText(page.locator('.empty'), 'No connectors yet');
    const form = page.getByRole('form', { name: 'Add a connector' });
    await form.getByLabel(/^Slug/).fill('broken');
    await form.getByLabel('URL').fill('not a url');
    await form.getByRole('button', { name: 'Add connector' }).click();
    await hasText(form.getByRole('alert'), /url.*must be an absolute URL.*\(VALIDATION_ERROR\)/);
    // A stdio connector on a service with no MCP_STDIO_ALLOWLIST: the policy's refusal, as said.
    await form.getByRole('radio', { name: /stdio/ }).check();
    await form.getByLabel(/^Command/).fill('my-mcp-server');
    await form.getByLabel('Arguments (one per line)').fill('--port\n8080');
    await form.getByRole('button', { name: 'Add a variable' }).click();
    await form.getByLabel('Variable 1 name').fill('API_TOKEN');
    await form.getByLabel('Variable 1 value').fill('tok-555');
    await form.getByRole('button', { name: 'Add connector' }).click();
    await hasText(
      form.getByRole('alert'),
      /Stdio connectors are disabled on this service.*\(PERMISSION_DENIED\)/,
    );
    await form.getByRole('radio', { name: /http/ }).check();
    expect((await api<{ connectors: unknown[] }>('/api/connectors')).connectors).toEqual([]);
  });

  it('adds an http connector with a header: its tool is listed, the header value never shown', async () => {
    const form = page.getByRole('form', { name: 'Add a connector' });
    await form.getByLabel(/^Slug/).fill('dictionary');
    await form.getByLabel('Display name (optional)').fill('Tiny dictionary');
    await form.getByLabel('URL').fill(mcp.url);
    await form.getByRole('button', { name: 'Add a header' }).click();
    await form.getByLabel('Header 1 name').fill('X-Team');
    await form.getByLabel('Header 1 value').fill('team-blue-7731');
    await form.getByRole('button', { name: 'Add connector' }).click();
    await hasText(page.locator('.notice'), 'Added dictionary: 1 tool found');
    const row = page.getByTestId('connector-dictionary');
    await hasText(row, 'Tiny dictionary');
    await hasText(row, 'active');
    await hasText(row, 'headers: X-Team');
    const tools = page.getByTestId('connector-tools');
    await hasText(tools, 'mcp.dictionary.define');
    await hasText(tools, 'Define a word');
    await hasText(tools, 'Answers the definition of one English word');
    // The server got the header; the page never shows it back.
    expect(mcp.teamHeaders).toContain('team-blue-7731');
    expect(await page.content()).not.toContain('team-blue-7731');
    await page.reload();
    await hasText(page.getByTestId('connector-dictionary'), 'X-Team');
    expect(await page.content()).not.toContain('team-blue-7731');
    const { connectors } = await api<{ connectors: Array<{ slug: string; toolCount: number }> }>(
      '/api/connectors',
    );
    expect(connectors).toMatchObject([{ slug: 'dictionary', toolCount: 1 }]);
  });

  it('refreshes: the tools found again, then the server down reported with the tools kept', async () => {
    const row = page.getByTestId('connector-dictionary');
    const before = mcp.teamHeaders.length;
    await row.getByRole('button', { name: 'Refresh' }).click();
    await hasText(page.locator('.notice'), 'Refreshed dictionary: 1 tool found');
    expect(mcp.teamHeaders.length).toBeGreaterThan(before);
    await hasText(page.getByTestId('connector-tools'), 'Define a word');
    await page.getByTestId('connector-tools').scrollIntoViewIfNeeded();
    await screenshot(page, 'connectors');

    await mcp.stop();
    await row.getByRole('button', { name: 'Refresh' }).click();
    await hasText(
      page.locator('.notice'),
      /Refreshed dictionary: it did not answer .*previous tools are kept/,
    );
    await hasText(row, 'error');
    await hasText(page.getByTestId('connector-tools'), 'mcp.dictionary.define');
  });

  it('disables and enables again', async () => {
    const row = page.getByTestId('connector-dictionary');
    await row.getByRole('button', { name: 'Disable' }).click();
    await hasText(page.locator('.notice'), 'Disabled dictionary');
    await hasText(row, 'disabled');
    const one = () => api<{ connector: { healthStatus: string } }>('/api/connectors/dictionary');
    expect((await one()).connector.healthStatus).toBe('disabled');
    await row.getByRole('button', { name: 'Enable' }).click();
    await hasText(page.locator('.notice'), 'Enabled dictionary');
    expect((await one()).connector.healthStatus).not.toBe('disabled');
  });

  it('deletes after a confirm, which Cancel leaves alone', async () => {
    const row = page.getByTestId('connector-dictionary');
    await row.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog');
    await hasText(dialog, 'Delete the connector dictionary?');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await api<{ connectors: unknown[] }>('/api/connectors')).connectors).toHaveLength(1);
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await hasText(page.locator('.notice'), 'Deleted dictionary');
    await hasText(page.locator('.empty'), 'No connectors yet');
    expect(await page.getByTestId('connector-tools').count()).toBe(0);
    expect((await api<{ connectors: unknown[] }>('/api/connectors')).connectors).toEqual([]);
  });

  /** A runtime's call with the credential: 404 for a grant that does not exist means it was accepted. */
  const consumeWith = (value: string) =>
    fetch(`${server.url}/api/vault/runtime-grants/consume`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${value}` },
      body: JSON.stringify({ grantId: `vgr_${'0'.repeat(32)}` }),
    });

  let value = '';

  it('creates a runtime credential: the value shown once, then only masked', async () => {
    await nav('Credentials');
    await page.getByRole('heading', { name: 'Runtime credentials' }).waitFor();
    await hasText(page.locator('.empty'), 'No runtime credentials yet');
    await page.getByLabel('Name').fill('report runner');
    await page.getByLabel('vault:consume').check();
    await page.getByRole('button', { name: 'Create credential' }).click();
    value = await page.getByTestId('credential-value').inputValue();
    expect(value).toMatch(/^sdk_/);
    await page.getByRole('button', { name: 'I stored it: hide' }).click();
    expect(await page.getByTestId('credential-reveal').count()).toBe(0);
    const row = page.getByTestId('credential-report runner');
    await hasText(row, 'vault:consume');
    await hasText(row, 'active');
    const masked = await row.getByTestId('masked').innerText();
    expect(masked).not.toBe(value);
    expect(await page.content()).not.toContain(value);
    await page.reload();
    await hasText(page.getByTestId('credential-report runner'), 'active');
    expect(await page.content()).not.toContain(value);
    expect((await consumeWith(value)).status).toBe(404);
    await screenshot(page, 'credentials');
  });

  it('revokes after a confirm: the list says revoked, the API and a runtime agree', async () => {
    const row = page.getByTestId('credential-report runner');
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
    await hasText(row, 'revoked');
    expect(await row.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
    const { credentials } = await api<{ credentials: Array<{ name: string; status: string }> }>(
      '/api/sdk/credentials',
    );
    expect(credentials).toMatchObject([{ name: 'report runner', status: 'revoked' }]);
    expect((await consumeWith(value)).status).toBe(401);
    expect(browser.pageErrors).toEqual([]);
  });
});
