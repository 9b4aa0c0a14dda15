import { FairGate } from '../../../src/http/fair-gate';

/** A piece of work that ends when told to. */
function gated() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: () => done, finish };
}

describe('FairGate', () => {
  it('runs at most perKey of one key at once, the rest in arrival order', async () => {
    const gate = new FairGate(2);
    const started: number[] = [];
    const works = Array.from({ length: 5 }, () => gated());
    const runs = works.map((w, i) =>
      gate.run('a', () => {
        started.push(i);
        return w.work();
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(gate.waiting('a')).toBe(3);
    works[1]!.finish();
    await runs[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    for (const w of works) w.finish();
    await Promise.all(runs);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(gate.waiting('a')).toBe(0);
  });

  it('lets another key run at once while one key has a queue', async () => {
    const gate = new FairGate(1);
    const a = Array.from({ length: 100 }, () => gated());
    const runsA = a.map((w) => gate.run('a', w.work));
    let bRan = false;
    await gate.run('b', async () => {
      bRan = true;
    });
    expect(bRan).toBe(true);
    expect(gate.waiting('a')).toBe(99);
    for (const w of a) w.finish();
    await Promise.all(runsA);
  });

  it('gives the slot back when the work fails', async () => {
    const gate = new FairGate(1);
    await expect(gate.run('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(gate.run('a', () => Promise.resolve(7))).resolves.toBe(7);
  });
});
