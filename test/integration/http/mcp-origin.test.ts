import { startRouterHarness, type RouterHarness } from '../tools/support/router-harness';

/**
 * DNS rebinding on /mcp (issue 15, item 11; the MCP transport requires servers to check Origin).
 * The harness listens on 127.0.0.1, so the Host check is on.
 */

const PUBLIC = 'https://agents.example.com';
const CONSOLE = 'http://console.example:8080';

let h: RouterHarness;
let token: string;

beforeAll(async () => {
  h = await startRouterHarness(
    {},
    { PUBLIC_BASE_URL: PUBLIC, ALLOWED_ORIGINS: `${CONSOLE}, http://localhost:6274` },
  );
  token = (await h.agent()).token;
});
afterAll(async () => {
  await h?.stop();
});

const listTools = (headers: Record<string, string>) =>
  h
    .http()
    .post('/mcp')
    .set('Authorization', `Bearer ${token}`)
    .set(headers)
    .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

describe('Origin on /mcp', () => {
  it('refuses a foreign origin with 403, before authentication', async () => {
    const res = await listTools({ Origin: 'http://evil.example' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'PERMISSION_DENIED', origin: 'http://evil.example' });
    expect(res.body.error).toMatch(/^Origin not allowed/);

    const anonymous = await h
      .http()
      .post('/mcp')
      .set('Origin', 'http://evil.example')
      .send({ tool: 'mem_get' });
    expect(anonymous.status).toBe(403);
  });

  it('refuses Origin: null, and what a rebound page sends (its own name as Origin and Host)', async () => {
    expect((await listTools({ Origin: 'null' })).status).toBe(403);
    const { port } = new URL(h.url);
    const rebound = await listTools({ Origin: `http://evil.example:${port}`, Host: `evil.example:${port}` });
    expect(rebound.status).toBe(403);
  });

  it("answers PUBLIC_BASE_URL's origin, ALLOWED_ORIGINS, and requests without Origin", async () => {
    const cases: Array<Record<string, string>> = [
      { Origin: PUBLIC },
      { Origin: CONSOLE },
      { Origin: 'http://localhost:6274' },
      {},
    ];
    for (const headers of cases) {
      const res = await listTools(headers);
      expect(res.status).toBe(200);
      expect(res.body.result.tools.length).toBeGreaterThan(0);
    }
    const spec = await h
      .http()
      .post('/mcp')
      .set('Authorization', `Bearer ${token}`)
      .set('Origin', CONSOLE)
      .send({ tool: 'mem_set', input: { key: 'origin', value: 1 } });
    expect(spec.status).toBe(200);
    expect(spec.body).toMatchObject({ success: true });
  });
});

describe('Host on a loopback-bound server', () => {
  it('refuses a Host that is not a loopback name', async () => {
    const res = await listTools({ Host: 'evil.example' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: 'PERMISSION_DENIED',
      error: expect.stringMatching(/^Host not allowed/),
    });
    expect((await listTools({ Host: 'evil.example:3000', Origin: PUBLIC })).status).toBe(403);
  });

  it("answers loopback names and PUBLIC_BASE_URL's host", async () => {
    const { port } = new URL(h.url);
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      'app.localhost',
      `[::1]:${port}`,
      'agents.example.com',
    ]) {
      expect((await listTools({ Host: host })).status).toBe(200);
    }
  });
});
