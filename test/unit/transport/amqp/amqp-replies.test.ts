import { decodeEnvelopes, readReplyMessage } from '../../../../src/transport/amqp/amqp-codec';
import { ReplyBatcher } from '../../../../src/transport/amqp/amqp-replies';
import { commandEnvelope } from '../../../support/envelopes';

const tick = () => new Promise((resolve) => setImmediate(resolve));

function recorder(maxBytes: number) {
  const sent: Array<{ queue: string; text: string }> = [];
  const errors: unknown[] = [];
  const batcher = new ReplyBatcher(
    (queue, content) => sent.push({ queue, text: content.toString('utf8') }),
    (err) => errors.push(err),
    maxBytes,
  );
  return { batcher, sent, errors };
}

const reply = (n: number) =>
  commandEnvelope('requester:a', {
    type: 'kernel.reply',
    correlationId: `r${n}`,
    body: { kind: 'reply', value: n },
  });

describe('ReplyBatcher', () => {
  it('sends the replies of one turn to one queue as one message, in order; a lone one as a plain envelope', async () => {
    const { batcher, sent } = recorder(10_000);
    const [e1, e2, e3, e4] = [1, 2, 3, 4].map(reply);
    batcher.add('q.a', JSON.stringify(e1));
    batcher.add('q.b', JSON.stringify(e2));
    batcher.add('q.a', JSON.stringify(e3));
    expect(sent).toEqual([]);
    await tick();
    expect(sent.map((s) => s.queue)).toEqual(['q.a', 'q.b']);
    expect(JSON.parse(sent[0].text)).toEqual([e1, e3]);
    expect(JSON.parse(sent[1].text)).toEqual(e2);
    batcher.add('q.a', JSON.stringify(e4));
    await tick();
    expect(JSON.parse(sent[2].text)).toEqual(e4);
  });

  it('joins the replies of every callback of one loop phase (two timers), then calls afterFlush once', async () => {
    const sent: string[] = [];
    let flushed = 0;
    const batcher = new ReplyBatcher(
      (_queue, content) => sent.push(content.toString('utf8')),
      () => undefined,
      10_000,
      () => flushed++,
    );
    const [e1, e2] = [1, 2].map(reply);
    // Two timers due together run in one timers phase, each its own macrotask (like two chunks of
    // socket data in one poll phase): a flush per microtask run would send two messages.
    await new Promise<void>((resolve) => {
      setTimeout(() => batcher.add('q', JSON.stringify(e1)), 0);
      setTimeout(() => {
        batcher.add('q', JSON.stringify(e2));
        setImmediate(resolve);
      }, 0);
    });
    expect(sent.map((t) => JSON.parse(t) as unknown)).toEqual([[e1, e2]]);
    expect(flushed).toBe(1);
    await tick();
    expect(flushed).toBe(1); // nothing new: no flush, no write
  });

  it('sends a batch early rather than let it grow past maxBytes', async () => {
    const { batcher, sent } = recorder(200);
    const texts = [1, 2, 3].map((n) => JSON.stringify(reply(n)));
    for (const t of texts) batcher.add('q', t); // each about 150 bytes, limit 200
    expect(sent).toHaveLength(2);
    await tick();
    expect(sent.map((s) => JSON.parse(s.text))).toEqual(texts.map((t) => JSON.parse(t)));
  });

  it('hands a batch it could not publish back to its caller, every envelope in order', async () => {
    const failed: unknown[] = [];
    const batcher = new ReplyBatcher(
      () => {
        throw new Error('channel closed');
      },
      (err, queue, jsons) => failed.push([(err as Error).message, queue, jsons]),
    );
    const [t1, t2] = [1, 2].map((n) => JSON.stringify(reply(n)));
    batcher.add('q', t1);
    batcher.add('q', t2);
    await tick();
    expect(failed).toEqual([['channel closed', 'q', [t1, t2]]]);
  });
});

describe('decodeEnvelopes', () => {
  it('reads one envelope or a batch, keeping the valid ones of a batch', () => {
    const [e1, e2] = [1, 2].map(reply);
    expect(decodeEnvelopes(Buffer.from(JSON.stringify(e1)))).toEqual({ envelopes: [e1], rejected: [] });
    const mixed = decodeEnvelopes(Buffer.from(JSON.stringify([e1, { v: 2 }, e2])));
    expect(mixed.envelopes).toEqual([e1, e2]);
    expect(mixed.rejected).toHaveLength(1);
    expect(mixed.rejected[0]).toMatch(/^invalid envelope/);
    expect(decodeEnvelopes(Buffer.from('{nope'))).toEqual({ envelopes: [], rejected: ['not JSON'] });
    expect(decodeEnvelopes(Buffer.from('[]'))).toEqual({ envelopes: [], rejected: ['empty batch'] });
  });
});

describe('readReplyMessage', () => {
  const read = (text: string) => {
    const events: Array<[string, unknown]> = [];
    readReplyMessage(
      Buffer.from(text),
      (e) => events.push(['envelope', e]),
      (reason) => events.push(['rejected', reason]),
    );
    return events;
  };

  it('hands over the envelopes of a batch in order, and each rejection', () => {
    const [e1, e2] = [1, 2].map(reply);
    const events = read(JSON.stringify([e1, { v: 2 }, e2]));
    expect(events.map(([what]) => what)).toEqual(['envelope', 'rejected', 'envelope']);
    expect(events[0][1]).toEqual(e1);
    expect(events[1][1]).toMatch(/^invalid envelope/);
    expect(events[2][1]).toEqual(e2);
    expect(read(JSON.stringify(e2))).toEqual([['envelope', e2]]);
    expect(read('{nope')).toEqual([['rejected', 'not JSON']]);
    expect(read('[]')).toEqual([['rejected', 'empty batch']]);
    expect(read('"text"')[0][0]).toBe('rejected');
  });

  it('reads replies in place: the parsed object itself, fields the schema does not know included', () => {
    const events = read(JSON.stringify({ ...reply(3), extra: 'kept' }));
    expect(events).toHaveLength(1);
    expect(events[0][1]).toMatchObject({ correlationId: 'r3', extra: 'kept' });
  });
});
