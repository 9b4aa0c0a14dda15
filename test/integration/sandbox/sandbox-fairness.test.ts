import pino from 'pino';
import type { ProcExecuteRequest } from '../../../schemas/tools/proc-execute';
import { createSandbox, type Sandbox, type SandboxResult } from '../../../src/sandbox';

/**
 * One owner (account) never starves another: S fills the sandbox with long loops, and T's trivial
 * call still runs before S's waiting calls. Checked by the order in which calls end, not by time.
 */
const LOOP = (timeout: number): ProcExecuteRequest => ({ language: 'js', code: 'while (true) {}', timeout });
const TRIVIAL: ProcExecuteRequest = { language: 'js', code: '1 + 1' };

/** Runs calls and records the order in which they end. */
function recorder(sandbox: Sandbox) {
  const order: string[] = [];
  const run = (label: string, request: ProcExecuteRequest, owner: string, signal?: AbortSignal) =>
    sandbox.execute(request, { owner, signal }).then((r: SandboxResult) => {
      order.push(label);
      return r;
    });
  return { order, run };
}

describe('sandbox: fair between owners', () => {
  let sandbox: Sandbox;

  beforeAll(async () => {
    sandbox = createSandbox({ threads: 2, logger: pino({ level: 'silent' }) });
    // Both workers started, so that the calls below are placed at once.
    await Promise.all(Array.from({ length: 4 }, () => sandbox.execute(TRIVIAL)));
  });
  afterAll(() => sandbox.close());

  it("runs T's trivial call while S's long loops hold their share and wait, before any of S's", async () => {
    const { order, run } = recorder(sandbox);
    const s = [1, 2, 3].map((i) => run(`S${i}`, LOOP(600), 'S'));
    // S holds one of the two threads (its share): its other calls wait though a thread is free.
    expect(sandbox.stats()).toMatchObject({ threads: 2, inFlight: 3, queued: 2 });
    const t = run('T', TRIVIAL, 'T');
    await expect(t).resolves.toMatchObject({ outcome: 'ok', result: 2 });
    const results = await Promise.all(s);
    for (const r of results) expect(r.outcome).toBe('timeout');
    // T ended first, S's calls in the order S sent them.
    expect(order).toEqual(['T', 'S1', 'S2', 'S3']);
  });

  it("answers a cancelled waiting call at once and keeps the order of the owner's other calls", async () => {
    const { order, run } = recorder(sandbox);
    const stop = new AbortController();
    const s1 = run('S1', LOOP(400), 'S');
    const s2 = run('S2', LOOP(400), 'S', stop.signal);
    const s3 = run('S3', LOOP(400), 'S');
    stop.abort('changed my mind');
    await expect(s2).resolves.toMatchObject({ outcome: 'cancelled', durationMs: 0 });
    await Promise.all([s1, s3]);
    expect(order).toEqual(['S2', 'S1', 'S3']);
    expect(sandbox.stats()).toMatchObject({ inFlight: 0, queued: 0 });
  });

  it('gives a waiting owner the next free thread before the owner that holds the others', async () => {
    const { order, run } = recorder(sandbox);
    // S and U each take one thread with a loop; S and U queue more; T comes last with a trivial call.
    const calls = [
      run('S1', LOOP(500), 'S'),
      run('U1', LOOP(2000), 'U'), // long enough to outlast S1 on a loaded machine
      run('S2', LOOP(300), 'S'),
      run('U2', LOOP(300), 'U'),
      run('T', TRIVIAL, 'T'),
    ];
    expect(sandbox.stats()).toMatchObject({ inFlight: 5, queued: 3 });
    await Promise.all(calls);
    // S1 ends first; its thread goes to T (never served yet), then S's and U's next calls in turn.
    expect(order.slice(0, 2)).toEqual(['S1', 'T']);
    expect(order.indexOf('S2')).toBeLessThan(order.indexOf('U2'));
  });

  it("refuses one owner's calls past its part of the line, while others still get in", async () => {
    const small = createSandbox({ threads: 2, maxQueue: 4, logger: pino({ level: 'silent' }) });
    try {
      // S may hold 1 thread and have 2 calls waiting (half of maxQueue): a 4th call is refused.
      const s = [1, 2, 3].map(() => small.execute(LOOP(30_000), { owner: 'S' }));
      await expect(small.execute(LOOP(30_000), { owner: 'S' })).rejects.toMatchObject({
        code: 'UNAVAILABLE',
        retryable: true,
      });
      await expect(small.execute(TRIVIAL, { owner: 'T' })).resolves.toMatchObject({ result: 2 });
      expect(small.abortAll('test over')).toBe(3);
      for (const r of await Promise.all(s)) expect(r.outcome).toBe('cancelled');
    } finally {
      await small.close();
    }
  });

  it('lets one owner use every thread when threadsPerOwner says so', async () => {
    const whole = createSandbox({ threads: 2, threadsPerOwner: 2, logger: pino({ level: 'silent' }) });
    try {
      const calls = [whole.execute(LOOP(30_000)), whole.execute(LOOP(30_000))];
      expect(whole.stats()).toMatchObject({ inFlight: 2, queued: 0 });
      whole.abortAll('test over');
      await Promise.all(calls);
    } finally {
      await whole.close();
    }
  });

  it('refuses a threadsPerOwner below 1, and takes one above threads as threads', async () => {
    const logger = pino({ level: 'silent' });
    expect(() => createSandbox({ threads: 2, threadsPerOwner: 0, logger })).toThrow(TypeError);
    expect(() => createSandbox({ threads: 2, threadsPerOwner: 1.5, logger })).toThrow(TypeError);
    const whole = createSandbox({ threads: 2, threadsPerOwner: 64, logger });
    try {
      const calls = [whole.execute(LOOP(30_000)), whole.execute(LOOP(30_000))];
      expect(whole.stats()).toMatchObject({ inFlight: 2, queued: 0 });
      whole.abortAll('test over');
      await Promise.all(calls);
    } finally {
      await whole.close();
    }
  });
});
