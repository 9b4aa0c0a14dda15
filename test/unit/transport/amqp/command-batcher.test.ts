import { errors, type AppError } from '../../../../schemas/errors';
import { CommandBatcher } from '../../../../src/transport/amqp/amqp-command-batches';
import { deferred, type Deferred } from '../../../support/async';
import { commandEnvelope } from '../../../support/envelopes';

/** One turn of the event loop: the batcher flushes at `setImmediate`. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

interface Published {
  kind: string;
  text: string;
  confirm: Deferred<void>;
}

/**
 * A batcher whose publishes are recorded and confirmed (or not) by the test. `events` interleaves
 * publishes and `afterFlush` calls, so their order can be checked.
 */
function recorder(maxEnvelopes?: number, maxBytes?: number) {
  const published: Published[] = [];
  const events: string[] = [];
  const batcher = new CommandBatcher(
    (kind, body) => {
      const confirm = deferred();
      published.push({ kind, text: body.toString('utf8'), confirm });
      events.push(`publish ${kind}`);
      return confirm.promise;
    },
    () => events.push('afterFlush'),
    maxEnvelopes,
    maxBytes,
  );
  return { batcher, published, events };
}

const json = (n: number, to = 'a:1') => JSON.stringify(commandEnvelope(to, { id: `cmd-${n}` }));

/** How each promise ended so far: 'pending', 'resolved' or the rejection itself. */
function track(promises: Array<Promise<void>>): Array<'pending' | 'resolved' | { rejected: unknown }> {
  const states: Array<'pending' | 'resolved' | { rejected: unknown }> = promises.map(() => 'pending');
  promises.forEach((p, i) =>
    p.then(
      () => (states[i] = 'resolved'),
      (err: unknown) => (states[i] = { rejected: err }),
    ),
  );
  return states;
}

describe('CommandBatcher', () => {
  it('publishes the commands of one turn once per kind, after the turn, in send order', async () => {
    const { batcher, published } = recorder();
    const [a1, b1, a2, a3] = [json(1, 'a:1'), json(2, 'b:1'), json(3, 'a:2'), json(4, 'a:1')];
    void batcher.add('a', a1);
    void batcher.add('b', b1);
    void batcher.add('a', a2);
    void batcher.add('a', a3);
    expect(published).toEqual([]); // nothing leaves before the end of the turn
    expect(batcher.size).toBe(4);
    await nextTurn();
    expect(published.map((p) => p.kind)).toEqual(['a', 'b']);
    expect(published[0].text).toBe(`[${a1},${a2},${a3}]`);
    expect(published[1].text).toBe(b1); // a lone command is the plain envelope, not an array
    expect(batcher.size).toBe(0);
  });

  it('gathers the commands of separate callbacks of one turn (not one tick)', async () => {
    const { batcher, published } = recorder();
    const [first, second] = [json(1), json(2)];
    // Two callbacks of one check phase, like two requests handled in one poll phase.
    await new Promise<void>((resolve) => {
      setImmediate(() => void batcher.add('a', first));
      setImmediate(() => {
        void batcher.add('a', second);
        resolve();
      });
    });
    expect(published).toEqual([]);
    await nextTurn();
    expect(published.map((p) => p.text)).toEqual([`[${first},${second}]`]);
  });

  it('publishes commands sent in separate turns separately', async () => {
    const { batcher, published } = recorder();
    const [first, second] = [json(1), json(2)];
    void batcher.add('a', first);
    await nextTurn();
    void batcher.add('a', second);
    await nextTurn();
    expect(published.map((p) => p.text)).toEqual([first, second]);
  });

  it('keeps a lone command byte for byte, and a batch parses back to its envelopes in order', async () => {
    const { batcher, published } = recorder();
    const envelopes = [1, 2, 3, 4, 5].map((n) => commandEnvelope('a:1', { id: `cmd-${n}` }));
    void batcher.add('a', JSON.stringify(envelopes[0]));
    await nextTurn();
    for (const e of envelopes) void batcher.add('a', JSON.stringify(e));
    await nextTurn();
    expect(published).toHaveLength(2);
    expect(published[0].text).toBe(JSON.stringify(envelopes[0]));
    expect(JSON.parse(published[1].text)).toEqual(envelopes);
  });

  it('starts a new message at batchMax, at once, keeping the order', async () => {
    const { batcher, published, events } = recorder(3);
    const texts = [1, 2, 3, 4, 5, 6, 7].map((n) => json(n));
    texts.slice(0, 3).forEach((t) => void batcher.add('a', t));
    expect(published).toHaveLength(0);
    void batcher.add('a', texts[3]); // the 4th does not fit: the full batch leaves now
    expect(published.map((p) => p.text)).toEqual([`[${texts.slice(0, 3).join(',')}]`]);
    texts.slice(4).forEach((t) => void batcher.add('a', t));
    expect(published).toHaveLength(2);
    expect(batcher.size).toBe(1);
    await nextTurn();
    expect(published.map((p) => p.text)).toEqual([
      `[${texts.slice(0, 3).join(',')}]`,
      `[${texts.slice(3, 6).join(',')}]`,
      texts[6],
    ]);
    expect(events).toEqual(['publish a', 'publish a', 'publish a', 'afterFlush']);
  });

  it('starts a new message rather than let one grow past maxBytes of JSON', async () => {
    const texts = [1, 2, 3].map((n) => json(n));
    const two = `[${texts[0]},${texts[1]}]`;
    // Exactly the size of a batch of two: the third starts a new message.
    const exact = recorder(32, two.length);
    texts.forEach((t) => void exact.batcher.add('a', t));
    await nextTurn();
    expect(exact.published.map((p) => p.text)).toEqual([two, texts[2]]);
    // One byte less: not even two fit together.
    const tight = recorder(32, two.length - 1);
    texts.forEach((t) => void tight.batcher.add('a', t));
    await nextTurn();
    expect(tight.published.map((p) => p.text)).toEqual(texts);
  });

  it('still sends a command larger than maxBytes, alone', async () => {
    const { batcher, published } = recorder(32, 10);
    const texts = [json(1), json(2)];
    texts.forEach((t) => void batcher.add('a', t));
    await nextTurn();
    expect(published.map((p) => p.text)).toEqual(texts);
  });

  // The cap is in UTF-8 bytes, what is published: counted in characters, a batch of non-ASCII
  // commands could be up to 3 times maxBytes on the wire.
  it('counts maxBytes in bytes of UTF-8, not in characters', async () => {
    const texts = [1, 2, 3].map((n) =>
      JSON.stringify(commandEnvelope('a:1', { id: `cmd-${n}`, body: { text: 'é'.repeat(100) } })),
    );
    const maxBytes = 2 + texts[0].length + 1 + texts[1].length; // two fit in characters, not in bytes
    const { batcher, published } = recorder(32, maxBytes);
    texts.forEach((t) => void batcher.add('a', t));
    await nextTurn();
    for (const p of published) expect(Buffer.byteLength(p.text)).toBeLessThanOrEqual(maxBytes);
  });

  it('settles every sender of a batch with its one publish: all resolve, or all reject with its error', async () => {
    const { batcher, published } = recorder();
    const ok = [1, 2, 3].map((n) => batcher.add('ok', json(n)));
    const failing = [4, 5].map((n) => batcher.add('failing', json(n)));
    const okStates = track(ok);
    const failingStates = track(failing);
    await nextTurn();
    expect(published).toHaveLength(2);
    expect(okStates).toEqual(['pending', 'pending', 'pending']); // resolved = confirmed, not sent
    const error = errors.unavailable('the broker did not accept the command: test', { transport: 'amqp' });
    published[1].confirm.reject(error);
    await nextTurn();
    expect(okStates).toEqual(['pending', 'pending', 'pending']); // batches settle independently
    expect(failingStates).toEqual([{ rejected: error }, { rejected: error }]);
    published[0].confirm.resolve();
    await nextTurn();
    expect(okStates).toEqual(['resolved', 'resolved', 'resolved']);
  });

  it('rejects every sender of a batch when publish throws synchronously', async () => {
    const error = errors.unavailable('message broker unavailable', { transport: 'amqp' });
    let calls = 0;
    const batcher = new CommandBatcher(
      () => {
        calls++;
        throw error;
      },
      () => undefined,
    );
    const sends = [1, 2, 3].map((n) => batcher.add('a', json(n)));
    const results = await Promise.allSettled(sends);
    expect(calls).toBe(1);
    expect(results).toEqual([1, 2, 3].map(() => ({ status: 'rejected', reason: error })));
  });

  it('failAll rejects what waits and publishes nothing; what was already published is not touched', async () => {
    const { batcher, published, events } = recorder(2);
    const sends = [1, 2, 3].map((n) => batcher.add('a', json(n))); // 1 and 2 left at once (batchMax 2)
    const states = track(sends);
    expect(published).toHaveLength(1);
    const lost: AppError = errors.unavailable('message broker unavailable', { transport: 'amqp' });
    batcher.failAll(lost);
    expect(batcher.size).toBe(0);
    await nextTurn();
    expect(states).toEqual(['pending', 'pending', { rejected: lost }]);
    expect(published).toHaveLength(1); // the flush found nothing
    expect(events).toEqual(['publish a']); // and did not call afterFlush
    published[0].confirm.resolve();
    await nextTurn();
    expect(states).toEqual(['resolved', 'resolved', { rejected: lost }]);
  });

  it('still flushes commands added after failAll in the same turn', async () => {
    const { batcher, published } = recorder();
    const lost = batcher.add('a', json(1));
    batcher.failAll(errors.unavailable('message broker unavailable'));
    await expect(lost).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    const later = json(2);
    void batcher.add('a', later);
    await nextTurn();
    expect(published.map((p) => p.text)).toEqual([later]);
  });

  it('calls afterFlush once per flush that published something, after its publishes', async () => {
    const { batcher, events } = recorder();
    void batcher.add('a', json(1));
    void batcher.add('b', json(2));
    void batcher.add('c', json(3));
    await nextTurn();
    expect(events).toEqual(['publish a', 'publish b', 'publish c', 'afterFlush']);
    await nextTurn();
    batcher.flush(); // nothing waits
    expect(events).toHaveLength(4);
    void batcher.add('a', json(4));
    await nextTurn();
    expect(events).toEqual(['publish a', 'publish b', 'publish c', 'afterFlush', 'publish a', 'afterFlush']);
  });

  it('flush() publishes at once, and the scheduled flush then finds nothing', async () => {
    const { batcher, published, events } = recorder();
    const text = json(1);
    void batcher.add('a', text);
    batcher.flush();
    expect(published.map((p) => p.text)).toEqual([text]);
    await nextTurn();
    expect(events).toEqual(['publish a', 'afterFlush']);
  });
});
