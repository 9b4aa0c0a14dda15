import type { Message } from 'amqplib';
import {
  decodeCommandMessage,
  deliveryCountOf,
  PRIOR_DELIVERIES_HEADER,
} from '../../../../src/transport/amqp/amqp-codec';
import { commandEnvelope } from '../../../support/envelopes';

const content = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));

describe('decodeCommandMessage', () => {
  it('reads a plain envelope as a single command', () => {
    const envelope = commandEnvelope('a:1', { id: 'one' });
    expect(decodeCommandMessage(content(envelope))).toEqual({
      batch: false,
      decoded: { ok: true, envelope },
    });
  });

  it('reads a JSON array as a batch, in order', () => {
    const envelopes = [1, 2, 3].map((n) => commandEnvelope('a:1', { id: `cmd-${n}` }));
    expect(decodeCommandMessage(content(envelopes))).toEqual({
      batch: true,
      items: envelopes.map((envelope) => ({ ok: true, envelope })),
    });
  });

  it('keeps a batch of one a batch', () => {
    const envelope = commandEnvelope('a:1', { id: 'alone' });
    expect(decodeCommandMessage(content([envelope]))).toEqual({
      batch: true,
      items: [{ ok: true, envelope }],
    });
  });

  it('refuses an empty batch as a malformed single message', () => {
    expect(decodeCommandMessage(content('[]'))).toEqual({
      batch: false,
      decoded: { ok: false, reason: 'empty batch' },
    });
  });

  it('refuses what is not JSON', () => {
    for (const text of ['{not json', '', '[{"v":1},']) {
      expect(decodeCommandMessage(content(text))).toEqual({
        batch: false,
        decoded: { ok: false, reason: 'not JSON' },
      });
    }
  });

  it('refuses a single message that is JSON but not an envelope, with the reason', () => {
    const decoded = decodeCommandMessage(content({ v: 2, id: 'x' }));
    expect(decoded).toEqual({ batch: false, decoded: { ok: false, reason: expect.any(String) } });
    expect(!decoded.batch && !decoded.decoded.ok && decoded.decoded.reason).toMatch(/^invalid envelope: v: /);
  });

  it('keeps the invalid elements of a batch with a reason (never the values), and the valid ones around them', () => {
    const [first, last] = [commandEnvelope('a:1', { id: 'first' }), commandEnvelope('a:2', { id: 'last' })];
    const bad = { v: 2 };
    const noType = { ...commandEnvelope('a:3', { id: 'no-type' }), type: undefined };
    const { items } = decodeCommandMessage(content([first, bad, 'text', noType, last])) as {
      items: unknown[];
    };
    expect(items).toEqual([
      { ok: true, envelope: first },
      { ok: false, reason: expect.stringMatching(/^invalid envelope: v: /) },
      { ok: false, reason: 'invalid envelope: (root): expected an object, got a string' },
      { ok: false, reason: expect.stringMatching(/^invalid envelope: type: /) },
      { ok: true, envelope: last },
    ]);
  });

  it('refuses an array with no valid envelope as one malformed message, however deep', () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    expect(decodeCommandMessage(content(deep))).toEqual({
      batch: false,
      decoded: {
        ok: false,
        reason:
          'an array with no valid envelope (1 element; the first: invalid envelope: (root): expected an object, got an array)',
      },
    });
    expect(decodeCommandMessage(content([{ v: 2 }, 3]))).toEqual({
      batch: false,
      decoded: {
        ok: false,
        reason: expect.stringMatching(/^an array with no valid envelope \(2 elements; /),
      },
    });
  });

  it('refuses what is not UTF-8 unread, though a lenient decoding would make a valid envelope of it', () => {
    const envelope = commandEnvelope('a:1', { id: 'x', body: { text: 'é' } });
    const bytes = content(envelope);
    const at = bytes.indexOf(Buffer.from('é'));
    const broken = Buffer.concat([bytes.subarray(0, at), Buffer.from([0xe9]), bytes.subarray(at + 2)]);
    expect(decodeCommandMessage(broken)).toEqual({
      batch: false,
      decoded: { ok: false, reason: 'invalid UTF-8' },
    });
  });

  it('refuses a message over the size limit unread, valid or not', () => {
    const bytes = content(commandEnvelope('a:1', { id: 'big', body: { text: 'x'.repeat(2000) } }));
    expect(decodeCommandMessage(bytes, 1000)).toEqual({
      batch: false,
      decoded: { ok: false, reason: `too large: ${bytes.length} bytes (limit 1000)` },
    });
    expect(decodeCommandMessage(bytes, bytes.length)).toMatchObject({ batch: false, decoded: { ok: true } });
  });
});

function message(headers: Record<string, unknown> | undefined, redelivered = false): Message {
  return {
    content: Buffer.alloc(0),
    fields: { redelivered, deliveryTag: 1, exchange: '', routingKey: 'q' },
    properties: { headers },
  } as unknown as Message;
}

describe('deliveryCountOf', () => {
  it('is 1 on a first delivery and 2 on a classic redelivery', () => {
    expect(deliveryCountOf(message(undefined))).toBe(1);
    expect(deliveryCountOf(message({}))).toBe(1);
    expect(deliveryCountOf(message(undefined, true))).toBe(2);
  });

  it('counts the returns a quorum queue stamps in x-delivery-count, over the redelivered flag', () => {
    expect(deliveryCountOf(message({ 'x-delivery-count': 0 }))).toBe(1);
    expect(deliveryCountOf(message({ 'x-delivery-count': 1 }, true))).toBe(2);
    expect(deliveryCountOf(message({ 'x-delivery-count': 4 }, true))).toBe(5);
    expect(deliveryCountOf(message({ 'x-delivery-count': BigInt(2) }, true))).toBe(3);
  });

  it('adds the deliveries a command had in its batch (x-ars-prior-deliveries)', () => {
    expect(PRIOR_DELIVERIES_HEADER).toBe('x-ars-prior-deliveries');
    expect(deliveryCountOf(message({ [PRIOR_DELIVERIES_HEADER]: 0 }))).toBe(1); // a hand-back
    expect(deliveryCountOf(message({ [PRIOR_DELIVERIES_HEADER]: 1 }))).toBe(2);
    expect(deliveryCountOf(message({ [PRIOR_DELIVERIES_HEADER]: 2 }, true))).toBe(4);
    expect(deliveryCountOf(message({ [PRIOR_DELIVERIES_HEADER]: 2, 'x-delivery-count': 1 }, true))).toBe(4);
    expect(deliveryCountOf(message({ [PRIOR_DELIVERIES_HEADER]: 3, 'x-delivery-count': 0 }))).toBe(4);
  });

  it.each([
    ['negative', -1],
    ['a numeric string', '2'],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['null', null],
    ['an object', { n: 2 }],
    ['a negative bigint', BigInt(-3)],
  ])('ignores a header that is %s', (_what, value) => {
    expect(deliveryCountOf(message({ [PRIOR_DELIVERIES_HEADER]: value }))).toBe(1);
    expect(deliveryCountOf(message({ [PRIOR_DELIVERIES_HEADER]: value }, true))).toBe(2);
    // A bad x-delivery-count falls back to the redelivered flag.
    expect(deliveryCountOf(message({ 'x-delivery-count': value }))).toBe(1);
    expect(deliveryCountOf(message({ 'x-delivery-count': value }, true))).toBe(2);
    expect(deliveryCountOf(message({ [PRIOR_DELIVERIES_HEADER]: value, 'x-delivery-count': 2 }, true))).toBe(
      3,
    );
  });
});
