import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import request from 'supertest';
import { eventually } from '../../../support/async';
import { MCP_CLIENTS } from '../../../support/mcp-clients';

/** A free loopback port (mcp-remote's OAuth callback takes a port, not 0). */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

export interface McpRemoteRun {
  /** An MCP client talking to mcp-remote over stdio; connected once mcp-remote reached `/mcp`. */
  client: Client;
  connected: Promise<void>;
  /** The authorization URL mcp-remote "opened in a browser" (a script that writes it down). */
  authorizationUrl(): Promise<string>;
  callbackPort: number;
  stderr(): string;
}

/**
 * Starts `mcp-remote <mcpUrl> <callbackPort>` under the Node 22 of tools/mcp-clients, with no
 * token, its state in `dir` (MCP_REMOTE_CONFIG_DIR, HOME), and a "browser" (xdg-open on PATH and
 * $BROWSER) that writes each URL it is asked to open into a file. An SDK client connects to it
 * over stdio; that connect resolves after the sign-in (see `approveAsUser`).
 */
export async function startMcpRemote(mcpUrl: string, dir: string): Promise<McpRemoteRun> {
  const bin = path.join(dir, 'bin');
  const opened = path.join(dir, 'opened-urls.txt');
  fs.mkdirSync(bin, { recursive: true });
  const browser = path.join(bin, 'xdg-open');
  fs.writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`, { mode: 0o755 });
  const callbackPort = await freePort();
  let stderr = '';
  const transport = new StdioClientTransport({
    command: MCP_CLIENTS.node22,
    args: [MCP_CLIENTS.mcpRemote, mcpUrl, String(callbackPort)],
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
  const client = new Client({ name: 'behind-mcp-remote', version: '1.0.0' });
  const connected = client.connect(transport, { timeout: 90_000 });
  connected.catch(() => undefined);
  return {
    client,
    connected,
    callbackPort,
    stderr: () => stderr,
    authorizationUrl: () =>
      eventually(() => {
        const urls = fs.existsSync(opened) ? fs.readFileSync(opened, 'utf8').trim().split('\n') : [];
        return urls.find((u) => u.includes('/oauth/authorize?'));
      }, 60_000).catch((err: Error) => {
        throw new Error(`${err.message}; mcp-remote said:\n${stderr}`);
      }),
  };
}

/**
 * What the user's browser does with the authorization URL: signed in (a session cookie from
 * `/api/signin`), the consent page, approve; then the redirect to mcp-remote's loopback callback is
 * followed. Answers the consent page's status, the redirect and the callback's status.
 */
export async function approveAsUser(
  serviceUrl: string,
  email: string,
  authorizationUrl: string,
): Promise<{ page: number; redirect: string; callback: number }> {
  const url = new URL(authorizationUrl);
  const user = request.agent(serviceUrl);
  const signin = await user.post('/api/signin').send({ email, password: 'correct horse battery' });
  if (signin.status !== 200) throw new Error(`signin: ${signin.status} ${signin.text}`);
  const page = await user.get(`${url.pathname}${url.search}`);
  const consent = /name="consent" value="([^"]+)"/.exec(page.text)?.[1];
  if (!consent) throw new Error(`no consent form: ${page.status} ${page.text.slice(0, 500)}`);
  const approved = await user.post('/oauth/authorize').type('form').send({ consent, op: 'approve' });
  const redirect = approved.headers.location as string;
  if (approved.status !== 302 || !redirect) throw new Error(`approve: ${approved.status} ${approved.text}`);
  const callback = await fetch(redirect);
  return { page: page.status, redirect, callback: callback.status };
}
