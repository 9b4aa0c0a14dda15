import { sleep, waitFor } from '../../support/async';
import { startRouterHarness, type RouterHarness } from './support/router-harness';

/**
 * `proc_execute` through `POST /mcp` (in one process, SANDBOX_THREADS=2): what a script writes
 * comes back exactly, a result nested too deep is a 400, and one tenant's long loops do not hold
 * up another tenant's trivial call (each self-registered agent is a tenant of its own).
 */
describe('proc_execute through /mcp: output fidelity, nesting, fairness between tenants', () => {
  let h: RouterHarness;

  beforeAll(async () => {
    h = await startRouterHarness();
  });
  afterAll(() => h?.stop());

  it('answers NULs and lone surrogates exactly, in stdout, stderr and result', async () => {
    const { token } = await h.agent();
    const res = await h.call(token, 'proc_execute', {
      language: 'js',
      code: "console.log('abc\\u0000def'); console.error('x\\ud800y'); 'r\\u0000\\udc00'",
    });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({
      outcome: 'ok',
      stdout: 'abc\u0000def\n',
      stderr: 'x\ud800y\n',
      result: 'r\u0000\udc00',
    });
    // On the wire, JSON escapes: the text stays valid UTF-8 and loses nothing.
    expect(res.text).toContain('"abc\\u0000def\\n"');
    expect(res.text).toContain('"x\\ud800y\\n"');
  });

  it('answers 400 VALIDATION_ERROR for a result nested deeper than 64 levels (was a 500)', async () => {
    const { token } = await h.agent();
    const res = await h.call(token, 'proc_execute', {
      language: 'js',
      code: 'let a = 1; for (let i = 0; i < 3000; i++) a = [a]; a',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'result_too_deep', limit: 64 });
    expect(res.body.error).toMatch(/deeper than 64 levels/);
  });

  it("runs tenant T's trivial call before tenant S's long loops, although S sent them first", async () => {
    const s = await h.agent();
    const t = await h.agent();
    const order: string[] = [];
    const call = (label: string, token: string, code: string, timeout?: number) =>
      h.call(token, 'proc_execute', { language: 'js', code, ...(timeout ? { timeout } : {}) }).then((res) => {
        order.push(label);
        return res;
      });
    const before = h.runtime.work.inFlight();
    const loops = [1, 2, 3].map((i) => call(`S${i}`, s.token, 'while (true) {}', 1500));
    // S's three calls are in the sandbox (one running, two waiting) before T sends its own.
    await waitFor(() => h.runtime.work.inFlight() === before + 3, "S's calls in flight");
    await sleep(300);
    const trivial = await call('T', t.token, '1 + 1');
    expect(trivial.body.result).toMatchObject({ outcome: 'ok', result: 2 });
    for (const res of await Promise.all(loops)) expect(res.body.result).toMatchObject({ outcome: 'timeout' });
    expect(order).toEqual(['T', 'S1', 'S2', 'S3']);
  });
});
