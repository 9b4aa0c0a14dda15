import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeWithMcpClients } from '../../support/mcp-clients';
import { startRouterHarness, type RouterHarness } from '../tools/support/router-harness';
import { approveAsUser, freePort, startMcpRemote } from './support/mcp-remote';

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
    const remote = await startMcpRemote(`${h.url}/mcp`, dir);
    try {
      const authorizationUrl = await remote.authorizationUrl();
      // What it met first: a 401 whose challenge names the metadata, which names this server.
      const challenge = await h.http().post('/mcp').send({ jsonrpc: '2.0', id: 1, method: 'ping' });
      expect(challenge.status).toBe(401);
      expect(challenge.headers['www-authenticate']).toContain('resource_metadata=');
      expect(remote.stderr()).toContain(
        `Discovered authorization server: ${h.runtime.config.PUBLIC_BASE_URL}`,
      );
      const url = new URL(authorizationUrl);
      expect(`${url.origin}${url.pathname}`).toBe(`${h.runtime.config.PUBLIC_BASE_URL}/oauth/authorize`);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      expect(url.searchParams.get('redirect_uri')).toMatch(
        new RegExp(`^http://localhost:${remote.callbackPort}/`),
      );

      const browser = await approveAsUser(h.url, account.email, authorizationUrl);
      expect(browser).toMatchObject({ page: 200, callback: 200 });
      expect(new URL(browser.redirect).searchParams.get('code')).toBeTruthy();

      await remote.connected;
      const { tools } = await remote.client.listTools();
      expect(tools.map((t) => t.name)).toContain('platform.proc_execute');
      // What it holds is a named token of the account, as every OAuth client's.
      const named = await h.http().get('/api/bearer-tokens').set('Authorization', `Bearer ${account.token}`);
      expect(named.body.tokens).toContainEqual(
        expect.objectContaining({ name: expect.stringMatching(/^MCP: /), scopes: ['mcp_connector'] }),
      );
    } finally {
      await remote.client.close().catch(() => undefined);
    }
  }, 120_000);
});
