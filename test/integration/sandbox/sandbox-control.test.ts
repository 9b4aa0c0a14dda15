import pino from 'pino';
import type { ProcExecuteRequest } from '../../../schemas/tools/proc-execute';
import { createSandbox, type Sandbox } from '../../../src/sandbox';
import type { Logger } from '../../../src/logging/logger';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A logger whose lines the test can read. */
function capturingLogger(): { logger: Logger; lines: Array<{ level: number; msg: string }> } {
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

const LOOP: ProcExecuteRequest = { language: 'javascript', code: 'while (true) {}', timeout: 20_000 };

describe('sandbox: cancellation and concurrency', () => {
  let sandbox: Sandbox;
  let lines: Array<{ level: number; msg: string }>;

  beforeAll(async () => {
    const captured = capturingLogger();
    lines = captured.lines;
    sandbox = createSandbox({ threads: 2, logger: captured.logger });
    // Workers that are still starting would leave the first calls queued, not running.
    await Promise.all(Array.from({ length: 4 }, () => sandbox.execute({ language: 'js', code: '1' })));
  });
  afterAll(() => sandbox.close());

  const noWorkerKilled = () => expect(lines.filter((l) => /terminated|replaced/.test(l.msg))).toEqual([]);

  it('an aborted signal stops a running infinite loop promptly, without killing the worker', async () => {
    const controller = new AbortController();
    const running = sandbox.execute(LOOP, { signal: controller.signal });
    await sleep(150);
    const abortedAt = Date.now();
    controller.abort('user pressed stop');
    const r = await running;
    expect(Date.now() - abortedAt).toBeLessThan(500);
    expect(r).toMatchObject({ outcome: 'cancelled', exitCode: 130, stdout: '' });
    expect(r.stderr).toBe('Error: execution cancelled (user pressed stop)\n');
    expect(r.durationMs).toBeGreaterThan(0);
    noWorkerKilled();
  });

  it('answers at once when the signal is already aborted', async () => {
    const r = await sandbox.execute(
      { language: 'js', code: 'console.log(1)' },
      { signal: AbortSignal.abort() },
    );
    expect(r).toMatchObject({ outcome: 'cancelled', stdout: '', durationMs: 0 });
  });

  it('abortAll cancels running and queued calls, and the pool goes on', async () => {
    const queuedSignal = new AbortController();
    const calls = [
      sandbox.execute(LOOP),
      sandbox.execute(LOOP),
      sandbox.execute({ language: 'js', code: "console.log('queued')" }, { signal: queuedSignal.signal }),
      sandbox.execute({ language: 'js', code: "console.log('queued too')" }),
    ];
    await sleep(150);
    expect(sandbox.stats()).toMatchObject({ threads: 2, inFlight: 4 });
    // One queued call cancelled on its own first: answered without waiting for a worker.
    queuedSignal.abort();
    await expect(calls[2]).resolves.toMatchObject({ outcome: 'cancelled', durationMs: 0 });

    const began = Date.now();
    expect(sandbox.abortAll('panic')).toBe(3);
    const results = await Promise.all(calls);
    expect(Date.now() - began).toBeLessThan(500);
    for (const r of results) expect(r.outcome).toBe('cancelled');
    expect(results[0].stderr).toMatch(/cancelled \(panic\)/);
    expect(sandbox.abortAll('nothing left')).toBe(0);
    expect((await sandbox.execute({ language: 'js', code: '"still here"' })).result).toBe('still here');
    noWorkerKilled();
  });

  it('runs 20 calls in parallel, each with its own correct answer', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        sandbox.execute({
          language: 'javascript',
          code: `let sum = 0; for (let k = 0; k <= ${i * 1000}; k++) sum += k; console.log('call', ${i}); globalThis.mine = ${i}; sum`,
        }),
      ),
    );
    results.forEach((r, i) => {
      expect(r.outcome).toBe('ok');
      expect(r.stdout).toBe(`call ${i}\n`);
      expect(r.result).toBe((i * 1000 * (i * 1000 + 1)) / 2);
    });
  });
});

describe('sandbox: order of waiting calls', () => {
  it('runs calls that wait for a worker first come, first served, also while more keep coming', async () => {
    const sandbox = createSandbox({ threads: 1, logger: pino({ level: 'silent' }) });
    try {
      await sandbox.execute({ language: 'js', code: '1' }); // the worker is up
      const busy = (n: number) => ({
        language: 'javascript',
        code: `const end = Date.now() + 15; while (Date.now() < end) {} ${n}`,
      });
      const finished: number[] = [];
      const pending = new Set<Promise<void>>();
      const submit = (n: number) => {
        const call = sandbox.execute(busy(n)).then((r) => {
          expect(r.outcome).toBe('ok');
          finished.push(r.result as number);
          pending.delete(call);
        });
        pending.add(call);
      };
      // Ten at once, then one more each time one ends: the line never empties.
      for (let n = 0; n < 10; n++) submit(n);
      for (let n = 10; n < 20; n++) {
        await Promise.race(pending);
        submit(n);
      }
      await Promise.all(pending);
      expect(finished).toEqual(Array.from({ length: 20 }, (_, n) => n));
    } finally {
      await sandbox.close();
    }
  });

  it('does not hand a call cancelled while it waited to a worker, and keeps the order of the rest', async () => {
    const sandbox = createSandbox({ threads: 1, logger: pino({ level: 'silent' }) });
    try {
      await sandbox.execute({ language: 'js', code: '1' });
      const first = sandbox.execute({
        language: 'javascript',
        code: 'const end = Date.now() + 150; while (Date.now() < end) {} "first"',
      });
      const controller = new AbortController();
      const cancelled = sandbox.execute({ language: 'js', code: '"never"' }, { signal: controller.signal });
      const third = sandbox.execute({ language: 'js', code: '"third"' });
      expect(sandbox.stats()).toMatchObject({ inFlight: 3, queued: 2 });
      controller.abort('changed my mind');
      await expect(cancelled).resolves.toMatchObject({ outcome: 'cancelled', durationMs: 0 });
      expect(sandbox.stats()).toMatchObject({ inFlight: 2 });
      await expect(first).resolves.toMatchObject({ outcome: 'ok', result: 'first' });
      await expect(third).resolves.toMatchObject({ outcome: 'ok', result: 'third' });
      expect(sandbox.stats()).toMatchObject({ inFlight: 0, queued: 0 });
    } finally {
      await sandbox.close();
    }
  });
});

describe('sandbox: a worker stuck outside the interrupt handler', () => {
  it('is terminated past timeout + grace and replaced; the call reports the timeout', async () => {
    const { logger, lines } = capturingLogger();
    const sandbox = createSandbox({ threads: 1, logger, killGraceMs: 200 });
    try {
      // QuickJS's JSON.stringify of deep nesting is quadratic and never checks for interrupts.
      const code = 'let a = []; for (let i = 0; i < 5e4; i++) a = [a]; JSON.stringify(a).length';
      // No wall-clock bound here (a loaded machine stretches it): the kill is proven by the
      // outcome and the log line; a worker that was never terminated runs past the test's timeout.
      // 1 s: the nested array must be built (interruptible) before the timeout, even on a loaded
      // machine, so that the timeout falls in the uninterruptible stringify.
      const r = await sandbox.execute({ language: 'javascript', code, timeout: 1000 });
      expect(r).toMatchObject({ outcome: 'timeout', exitCode: 124 });
      expect(lines.some((l) => /terminated/.test(l.msg))).toBe(true);
      expect((await sandbox.execute({ language: 'javascript', code: '2 + 2' })).result).toBe(4);
    } finally {
      await sandbox.close();
    }
  });
});

describe('sandbox: tasksPerWorker 2, the call a worker holds next', () => {
  it('does not count the wait behind the running call against its own timeout', async () => {
    const sandbox = createSandbox({ threads: 1, tasksPerWorker: 2, logger: pino({ level: 'silent' }) });
    try {
      await sandbox.execute({ language: 'js', code: '1' }); // the worker is up
      const busy = 'const end = Date.now() + 400; while (Date.now() < end) {} "first"';
      const [first, second] = await Promise.all([
        sandbox.execute({ language: 'javascript', code: busy }),
        sandbox.execute({ language: 'javascript', code: '"second"', timeout: 100 }),
      ]);
      expect(first).toMatchObject({ outcome: 'ok', result: 'first' });
      expect(second).toMatchObject({ outcome: 'ok', result: 'second' });
    } finally {
      await sandbox.close();
    }
  });

  it('is refused other than 1 or 2', () => {
    expect(() =>
      createSandbox({ threads: 1, tasksPerWorker: 3 as never, logger: pino({ level: 'silent' }) }),
    ).toThrow(TypeError);
  });

  it('runs it on the replacement when its worker is terminated for the call before it', async () => {
    const { logger, lines } = capturingLogger();
    const sandbox = createSandbox({ threads: 1, tasksPerWorker: 2, logger, killGraceMs: 200 });
    try {
      await sandbox.execute({ language: 'js', code: '1' });
      const stuck = 'let a = []; for (let i = 0; i < 5e4; i++) a = [a]; JSON.stringify(a).length';
      const [killed, next] = await Promise.all([
        // 1 s, so that the timeout falls in the stringify, not in the building loop (see above).
        sandbox.execute({ language: 'javascript', code: stuck, timeout: 1000 }),
        sandbox.execute({ language: 'javascript', code: '"after the kill"' }),
      ]);
      expect(killed).toMatchObject({ outcome: 'timeout', exitCode: 124 });
      expect(lines.some((l) => /terminated/.test(l.msg))).toBe(true);
      expect(next).toMatchObject({ outcome: 'ok', result: 'after the kill' });
    } finally {
      await sandbox.close();
    }
  });
});

describe('sandbox: queue limit', () => {
  it('refuses calls past threads + maxQueue with a retryable UNAVAILABLE', async () => {
    const sandbox = createSandbox({ threads: 1, maxQueue: 1, logger: pino({ level: 'silent' }) });
    try {
      const accepted = [sandbox.execute(LOOP), sandbox.execute(LOOP)];
      await expect(sandbox.execute(LOOP)).rejects.toMatchObject({ code: 'UNAVAILABLE', retryable: true });
      sandbox.abortAll('test over');
      for (const r of await Promise.all(accepted)) expect(r.outcome).toBe('cancelled');
      expect((await sandbox.execute({ language: 'js', code: '"room again"' })).result).toBe('room again');
    } finally {
      await sandbox.close();
    }
  });
});

describe('sandbox: close', () => {
  it('cancels what is in flight and refuses new calls', async () => {
    const sandbox = createSandbox({ threads: 1, logger: pino({ level: 'silent' }) });
    const running = sandbox.execute(LOOP);
    await sleep(100);
    await sandbox.close();
    await expect(running).resolves.toMatchObject({ outcome: 'cancelled' });
    await expect(sandbox.execute({ language: 'js', code: '1' })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
  });
});
