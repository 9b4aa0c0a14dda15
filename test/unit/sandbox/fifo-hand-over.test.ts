import { FifoHandOver } from '../../../src/sandbox/fifo-hand-over';
import { CONTROL, type TaskInput } from '../../../src/sandbox/sandbox-call';

/** A stand-in for Piscina: every task it is given waits until the test settles it. */
function fakePool() {
  const given: Array<{ n: number; resolve(v: unknown): void; reject(e: unknown): void }> = [];
  let running = 0;
  let mostAtOnce = 0;
  const pool = {
    run(task: TaskInput) {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      return new Promise((resolve, reject) => {
        const done =
          (fn: (v: unknown) => void) =>
          (v: unknown): void => {
            running -= 1;
            fn(v);
          };
        given.push({ n: Number(task.code), resolve: done(resolve), reject: done(reject) });
      });
    },
  };
  return { pool, given, mostAtOnce: () => mostAtOnce };
}

const task = (n: number): TaskInput => ({
  code: String(n),
  stdin: '',
  args: [],
  timeoutMs: 1000,
  control: new SharedArrayBuffer(8),
  submittedAt: Date.now(),
});
const signal = new AbortController().signal;
const tick = () => new Promise((r) => setImmediate(r));

describe('FifoHandOver', () => {
  it('hands over at most `capacity` tasks at once, the others in the order they came', async () => {
    const { pool, given, mostAtOnce } = fakePool();
    const handOver = new FifoHandOver(pool, 2);
    const results = Array.from({ length: 6 }, (_, n) => handOver.run(task(n), { signal }));
    expect(given.map((g) => g.n)).toEqual([0, 1]);
    expect(handOver.queued).toBe(4);

    given[1].resolve('one');
    await tick();
    expect(given.map((g) => g.n)).toEqual([0, 1, 2]);
    // A task that came meanwhile waits behind the ones already waiting.
    results.push(handOver.run(task(6), { signal }));
    for (let k = 0; k < 7; k++) {
      if (k !== 1) given[k].resolve(k);
      await tick();
    }
    expect(given.map((g) => g.n)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(mostAtOnce()).toBe(2);
    expect(handOver.queued).toBe(0);
    await expect(results[1]).resolves.toBe('one');
  });

  it('passes a task through at once while there is room and nothing waits', async () => {
    const { pool, given } = fakePool();
    const handOver = new FifoHandOver(pool, 1);
    const first = handOver.run(task(7), { signal });
    expect(given).toHaveLength(1);
    given[0].resolve('seven');
    await expect(first).resolves.toBe('seven');
    const second = handOver.run(task(8), { signal });
    expect(given).toHaveLength(2);
    given[1].resolve('eight');
    await expect(second).resolves.toBe('eight');
  });

  it('drops a task cancelled while it waited (answered undefined, never handed over)', async () => {
    const { pool, given } = fakePool();
    const handOver = new FifoHandOver(pool, 1);
    const running = handOver.run(task(0), { signal });
    const doomed = task(1);
    const dropped = handOver.run(doomed, { signal });
    const kept = handOver.run(task(2), { signal });
    Atomics.store(new Int32Array(doomed.control), CONTROL.STATE, CONTROL.CANCELLED);
    given[0].resolve('zero');
    await expect(running).resolves.toBe('zero');
    await expect(dropped).resolves.toBeUndefined();
    await tick();
    expect(given.map((g) => g.n)).toEqual([0, 2]);
    given[1].resolve('two');
    await expect(kept).resolves.toBe('two');
  });

  it("passes on the pool's rejection and frees the place for the next task", async () => {
    const { pool, given } = fakePool();
    const handOver = new FifoHandOver(pool, 1);
    const failing = handOver.run(task(0), { signal });
    const next = handOver.run(task(1), { signal });
    given[0].reject(new Error('worker died'));
    await expect(failing).rejects.toThrow('worker died');
    await tick();
    expect(given.map((g) => g.n)).toEqual([0, 1]);
    given[1].reject(new Error('again'));
    await expect(next).rejects.toThrow('again');
  });

  it('keeps its order over many tasks (the waiting line is compacted as it goes)', async () => {
    const { pool, given } = fakePool();
    const handOver = new FifoHandOver(pool, 3);
    const all = Array.from({ length: 500 }, (_, n) => handOver.run(task(n), { signal }));
    for (let i = 0; i < 500; i++) {
      given[i].resolve(i);
      await tick();
    }
    expect(given.map((g) => g.n)).toEqual(Array.from({ length: 500 }, (_, n) => n));
    await expect(Promise.all(all)).resolves.toEqual(Array.from({ length: 500 }, (_, n) => n));
  });

  it('refuses a capacity below 1', () => {
    expect(() => new FifoHandOver(fakePool().pool, 0)).toThrow(TypeError);
  });
});
