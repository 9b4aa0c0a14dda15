import { ConnectorPool } from '../../../actors/connectors/connector-pool';
import type { ConnectorSpec } from '../../../actors/connectors/mcp-session';
import { silentLogger } from '../../../src/logging/logger';
import {
  EVERYTHING_ENTRY,
  EVERYTHING_PREFIX,
  eventually,
  everythingChildren,
  isAlive,
} from './support/connectors-harness';
import { startTestMcpServer, type TestMcpServer } from './support/test-mcp-server';

/** The session pool on its own: idle close, the bound on child processes, the panic button. */

const stdioSpec = (id: string, accountId = 'acc_a'): ConnectorSpec => ({
  id,
  accountId,
  slug: id,
  transport: 'stdio',
  command: process.execPath,
  args: [EVERYTHING_ENTRY, 'stdio'],
  env: {},
  headers: {},
});

const never = new AbortController().signal;
let server: TestMcpServer;
const pools: ConnectorPool[] = [];

function pool(options: ConstructorParameters<typeof ConnectorPool>[0] extends infer O ? Partial<O> : never) {
  const p = new ConnectorPool({
    logger: silentLogger,
    allowLoopback: true,
    stdioAllowlist: [EVERYTHING_PREFIX],
    ...options,
  });
  pools.push(p);
  return p;
}

beforeAll(async () => {
  server = await startTestMcpServer();
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.closeAll()));
  await server.stop();
  await eventually(() => everythingChildren().length === 0);
});

it('opens lazily, reuses the session, and closes it (and its child) after idleMs', async () => {
  const p = pool({ idleMs: 400 });
  expect(p.list()).toEqual([]);
  await p.call(stdioSpec('con_idle'), 'echo', { message: 'a' }, { signal: never });
  const [session] = p.list();
  expect(session).toMatchObject({ connectorId: 'con_idle', transport: 'stdio', inFlight: 0 });
  const pid = session.pid!;
  expect(isAlive(pid)).toBe(true);
  await p.call(stdioSpec('con_idle'), 'echo', { message: 'b' }, { signal: never });
  expect(p.list()[0].pid).toBe(pid);
  await eventually(() => p.list().length === 0 && !isAlive(pid));
});

it('reopens a session whose child died', async () => {
  const p = pool({});
  await p.call(stdioSpec('con_dies'), 'echo', { message: 'a' }, { signal: never });
  const pid = p.list()[0].pid!;
  process.kill(pid, 'SIGKILL');
  await eventually(() => !isAlive(pid));
  const result = await p.call(stdioSpec('con_dies'), 'echo', { message: 'again' }, { signal: never });
  expect(result.content).toEqual([{ type: 'text', text: 'Echo: again' }]);
  expect(p.list()[0].pid).not.toBe(pid);
  await p.close('con_dies');
});

it('keeps at most maxStdioSessions children: the least recently used idle one is closed', async () => {
  const p = pool({ maxStdioSessions: 1 });
  await p.discover(stdioSpec('con_one'), { signal: never });
  const first = p.list()[0].pid!;
  await p.discover(stdioSpec('con_two'), { signal: never });
  expect(p.list().map((s) => s.connectorId)).toEqual(['con_two']);
  expect(isAlive(first)).toBe(false);
  await p.closeAll();
  expect(everythingChildren()).toEqual([]);
});

it("keeps a stdio child for other accounts: one account's busy connectors never take every one", async () => {
  const p = pool({ maxStdioSessions: 2 });
  const busy = new AbortController();
  // Account A: a long call keeps its first connector busy.
  const long = p.call(
    stdioSpec('con_a1'),
    'trigger-long-running-operation',
    { duration: 30, steps: 30 },
    {
      signal: busy.signal,
    },
  );
  await eventually(() => p.list().some((s) => s.connectorId === 'con_a1' && s.inFlight === 1));
  // A holds its share (1 of 2): its second connector is refused while the first is busy...
  await expect(p.discover(stdioSpec('con_a2'), { signal: never })).rejects.toMatchObject({
    code: 'UNAVAILABLE',
    retryable: true,
    message: expect.stringMatching(/this account's stdio MCP connectors are all busy/i),
  });
  // ...and account B's connector starts on the child kept for others.
  await p.discover(stdioSpec('con_b1', 'acc_b'), { signal: never });
  expect(
    p
      .list()
      .map((s) => s.connectorId)
      .sort(),
  ).toEqual(['con_a1', 'con_b1']);
  busy.abort();
  await expect(long).rejects.toBeDefined();
  // With its own session idle, A's next connector replaces it (B's is left alone).
  await eventually(() => p.list().every((s) => s.inFlight === 0));
  await p.discover(stdioSpec('con_a2'), { signal: never });
  expect(
    p
      .list()
      .map((s) => s.connectorId)
      .sort(),
  ).toEqual(['con_a2', 'con_b1']);
  await p.closeAll();
});

it('refuses a stdio command outside the allowlist at start (even if it was stored earlier)', async () => {
  const p = pool({ stdioAllowlist: [] });
  await expect(p.discover(stdioSpec('con_refused'), { signal: never })).rejects.toMatchObject({
    code: 'PERMISSION_DENIED',
  });
  expect(p.list()).toEqual([]);
});

it('abortAll cancels calls in flight (per account or all)', async () => {
  const p = pool({});
  const spec = (id: string, accountId: string): ConnectorSpec => ({
    id,
    accountId,
    slug: id,
    transport: 'http',
    url: server.url,
    args: [],
    env: {},
    headers: {},
  });
  const a = p.call(spec('con_ha', 'acc_a'), 'slow', { ms: 10_000, tag: 'pa' }, { signal: never });
  const b = p.call(spec('con_hb', 'acc_b'), 'slow', { ms: 1500, tag: 'pb' }, { signal: never });
  await eventually(() => server.started.includes('pa') && server.started.includes('pb'));
  expect(p.abortAll('panic', { accountId: 'acc_a' })).toBe(1);
  await expect(a).rejects.toMatchObject({
    code: 'UNAVAILABLE',
    message: 'MCP connector call cancelled (panic)',
  });
  await expect(b).resolves.toMatchObject({ isError: false });
  await eventually(() => server.cancelled.includes('pa'));
  const c = p.call(spec('con_hb', 'acc_b'), 'slow', { ms: 10_000, tag: 'pc' }, { signal: never });
  await eventually(() => server.started.includes('pc'));
  expect(p.abortAll('panic')).toBe(1);
  await expect(c).rejects.toMatchObject({ code: 'UNAVAILABLE' });
});
