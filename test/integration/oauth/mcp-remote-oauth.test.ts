import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import request from 'supertest';
import { eventually } from '../../support/async';
import { describeWithMcpClients, MCP_CLIENTS } from '../../support/mcp-clients';
import { startRouterHarness, type RouterHarness } from '../tools/support/router-harness';

/**
 * `mcp-remote` (0.15.1, under the Node 22 of tools/mcp-clients) signing in to `/mcp` through the
 * service's own OAuth server with no token given: it meets the 401 and its `WWW-Authenticate`,
 * reads the metadata, registers itself, and "opens a browser" at the authorization URL. The browser
 * here is a script that writes the URL down; the test follows it as a signed-in user would (a
 * session cookie from `/api/signin`, the consent page, approve), the redirect reaches mcp-remote's
 * loopback callback, mcp-remote exchanges the code, and an MCP client talking to mcp-remote over
 * stdio lists the tools. The token it got is a named `mcp_connector` token of the account.
 */
describeWithMcpClients('mcp-remote through the OAuth flow', () => {
  let h: RouterHarness;
  let dir: string;

  /** A free loopback port (mcp-remote's OAuth callback takes a port, not 0). */
  const freePort = () =>
    new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });

  beforeAll(async () => {
    // A port known before the start: PUBLIC_BASE_URL (the metadata's addresses) must be the real one.
    const port = await freePort();
    h = await startRouterHarness({}, { PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-mcp-remote-'));
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('registers, sends the user through sign-in and consent, and lists the tools with the token it got', async () => {
    const account = await h.account();
    // The "browser": xdg-open on PATH and $BROWSER both write the URL down (nothing is launched).
    const bin = path.join(dir, 'bin');
    const opened = path.join(dir, 'opened-urls.txt');
    fs.mkdirSync(bin);
    const browser = path.join(bin, 'xdg-open');
    fs.writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`, { mode: 0o755 });
    const callbackPort = await freePort();
    let stderr = '';
    const transport = new StdioClientTransport({
      command: MCP_CLIENTS.node22,
      args: [MCP_CLIENTS.mcpRemote, `${h.url}/mcp`, String(callbackPort)],
      env: {
        PATH: `${bin}:${process.env.PATH ?? ''}`,
        HOME: dir,
        BROWSER: browser,
        // Where mcp-remote keeps its client registration and tokens (default ~/.mcp-auth).
        MCP_REMOTE_CONFIG_DIR: path.join(dir, 'mcp-auth'),
      },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const client = new Client({ name: 'mcp-remote-test', version: '1.0.0' });
    // connect() resolves once mcp-remote reached /mcp, i.e. after the sign-in below.
    const connected = client.connect(transport, { timeout: 90_000 });
    connected.catch(() => undefined);
    try {
      const authorizeUrl = await eventually(() => {
        const urls = fs.existsSync(opened) ? fs.readFileSync(opened, 'utf8').trim().split('\n') : [];
        return urls.find((u) => u.includes('/oauth/authorize?'));
      }, 60_000).catch((err: Error) => {
        throw new Error(`${err.message}; mcp-remote said:\n${stderr}`);
      });
      // What it met first: a 401 whose challenge names the metadata, which names this server.
      const challenge = await h.http().post('/mcp').send({ jsonrpc: '2.0', id: 1, method: 'ping' });
      expect(challenge.status).toBe(401);
      expect(challenge.headers['www-authenticate']).toContain('resource_metadata=');
      expect(stderr).toContain(`Discovered authorization server: ${h.runtime.config.PUBLIC_BASE_URL}`);
      const url = new URL(authorizeUrl);
      expect(`${url.origin}${url.pathname}`).toBe(`${h.runtime.config.PUBLIC_BASE_URL}/oauth/authorize`);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      expect(url.searchParams.get('redirect_uri')).toMatch(new RegExp(`^http://localhost:${callbackPort}/`));

      // The user's browser: signed in (a session cookie), then the consent page, then approve.
      const user = request.agent(h.url);
      const signin = await user
        .post('/api/signin')
        .send({ email: account.email, password: 'correct horse battery' });
      expect(signin.status).toBe(200);
      const page = await user.get(`${url.pathname}${url.search}`);
      expect(page.status).toBe(200);
      const consent = /name="consent" value="([^"]+)"/.exec(page.text)?.[1];
      expect(consent).toBeDefined();
      const approved = await user.post('/oauth/authorize').type('form').send({ consent, op: 'approve' });
      expect(approved.status).toBe(302);
      const callback = await fetch(approved.headers.location as string);
      expect(callback.status).toBe(200);

      await connected;
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('platform.proc_execute');
      // What it holds is a named token of the account, as every OAuth client's.
      const named = await h.http().get('/api/bearer-tokens').set('Authorization', `Bearer ${account.token}`);
      expect(named.body.tokens).toContainEqual(
        expect.objectContaining({ name: expect.stringMatching(/^MCP: /), scopes: ['mcp_connector'] }),
      );
    } finally {
      await client.close().catch(() => undefined);
    }
  }, 120_000);
});
