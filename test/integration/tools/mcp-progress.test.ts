import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startRouterHarness, type RouterHarness } from './support/router-harness';

/**
 * Progress in between (agent-tools.ts `followProgress`, the egress's `onBytes`): a `net_http_get`
 * with a progressToken reports the bytes received while a slow upstream sends its body, relayed
 * from the agent's stream to the client's event stream.
 */

let h: RouterHarness;
let upstream: http.Server;
let base: string;

beforeAll(async () => {
  h = await startRouterHarness({}, { ALLOW_LOOPBACK_HTTP: 'true' });
  upstream = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '4000' });
    let sent = 0;
    const tick = () => {
      res.write('x'.repeat(1000));
      sent += 1;
      if (sent === 4) res.end();
      else setTimeout(tick, 250);
    };
    tick();
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => upstream.close(r));
  await h.stop();
});

const events = (text: string) =>
  text
    .trim()
    .split('\n\n')
    .map((e) =>
      JSON.parse(
        e
          .split('\n')
          .find((l) => l.startsWith('data: '))!
          .slice(6),
      ),
    );

it('net_http_get reports the bytes received as they come, then answers', async () => {
  const { token } = await h.agent();
  const res = await h
    .http()
    .post('/mcp')
    .set('Authorization', `Bearer ${token}`)
    .set('Accept', 'application/json, text/event-stream')
    .send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'net_http_get',
        arguments: { url: `${base}/slow`, allowHttp: true },
        _meta: { progressToken: 'dl' },
      },
    });
  expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
  const all = events(res.text);
  const notes = all.filter((m) => m.method === 'notifications/progress').map((m) => m.params);
  expect(notes[0]).toMatchObject({ progressToken: 'dl', progress: 0, message: 'net_http_get: started' });
  const bytes = notes.slice(1);
  // Several reports in between, growing, with the announced length as the total.
  expect(bytes.length).toBeGreaterThanOrEqual(2);
  for (let i = 1; i < bytes.length; i++) expect(bytes[i].progress).toBeGreaterThan(bytes[i - 1].progress);
  expect(bytes[0]).toMatchObject({ total: 4000, message: expect.stringMatching(/bytes received$/) });
  const response = all[all.length - 1];
  expect(response.id).toBe(1);
  expect(response.result.isError).toBe(false);
  expect(response.result.structuredContent).toMatchObject({ status: 200, bytes: 4000 });
});
