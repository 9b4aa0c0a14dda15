import { Mailbox } from '../../../src/kernel/mailbox';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('Mailbox', () => {
  it('runs jobs one at a time in push order, even when later jobs are faster', async () => {
    const log: string[] = [];
    let running = 0;
    const mailbox = new Mailbox<number>(async (n) => {
      running++;
      expect(running).toBe(1);
      log.push(`start ${n}`);
      await new Promise((resolve) => setTimeout(resolve, 10 - n));
      log.push(`end ${n}`);
      running--;
    });
    for (let n = 0; n < 5; n++) mailbox.push(n);
    expect(mailbox.size).toBe(5);
    while (!mailbox.idle) await tick();
    expect(log).toEqual([0, 1, 2, 3, 4].flatMap((n) => [`start ${n}`, `end ${n}`]));
  });

  it('reports a throwing job and moves on', async () => {
    const errors: unknown[] = [];
    const done: number[] = [];
    const mailbox = new Mailbox<number>(
      async (n) => {
        if (n === 1) throw new Error('bad job');
        done.push(n);
      },
      (error) => errors.push(error),
    );
    [0, 1, 2].forEach((n) => mailbox.push(n));
    while (!mailbox.idle) await tick();
    expect(done).toEqual([0, 2]);
    expect(errors).toHaveLength(1);
  });

  it('counts waiting jobs apart from the running one', async () => {
    let release!: () => void;
    const mailbox = new Mailbox<number>(() => new Promise<void>((resolve) => (release = resolve)));
    mailbox.push(1);
    mailbox.push(2);
    expect(mailbox.waiting).toBe(1);
    expect(mailbox.size).toBe(2);
    release();
    await tick();
    expect(mailbox.waiting).toBe(0);
    release();
    await tick();
    expect(mailbox.idle).toBe(true);
  });
});
