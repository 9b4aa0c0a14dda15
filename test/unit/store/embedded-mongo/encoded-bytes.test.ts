import { Binary, Decimal128, deserialize, Long, ObjectId, serialize, Timestamp } from 'bson';
import { putRecord } from '../../../../src/store/embedded-mongo/engine/store';
import { applyUpdate, parseUpdate } from '../../../../src/store/embedded-mongo/engine/update';
import { rememberEncoded, takeEncoded } from '../../../../src/store/embedded-mongo/encoded-bytes';
import { WIRE_BSON_OPTIONS } from '../../../../src/store/embedded-mongo/wire/protocol';

describe('journal records built around a document’s wire bytes', () => {
  const docs = [
    { _id: 'a' },
    {
      _id: new ObjectId(),
      text: 'é ✓ 漢字',
      n: 42,
      x: 1.5,
      big: Long.fromString('9007199254740993'),
      dec: Decimal128.fromString('12.3400'),
      bin: new Binary(Buffer.from([1, 2, 3]), 4),
      ts: new Timestamp({ t: 5, i: 6 }),
      at: new Date('2026-11-28T00:00:00.000Z'),
      none: null,
      list: [1, 'two', { three: [3] }],
      nested: { deep: { deeper: true } },
    },
  ];

  it.each(docs.map((d, i) => [i, d] as const))(
    'gives the bytes serialize gives for the record (document %i)',
    (_i, doc) => {
      const bytes = serialize(doc);
      const built = putRecord('agent_runtime', 'executions', bytes);
      expect(
        Buffer.compare(
          built,
          Buffer.from(serialize({ o: 'p', d: 'agent_runtime', c: 'executions', v: doc })),
        ),
      ).toBe(0);
      // And it decodes as that record, the document as the wire decodes it.
      expect(deserialize(built, WIRE_BSON_OPTIONS)).toEqual({
        o: 'p',
        d: 'agent_runtime',
        c: 'executions',
        v: deserialize(bytes, WIRE_BSON_OPTIONS),
      });
    },
  );

  it('keeps one head per namespace apart from the others', () => {
    const bytes = serialize({ _id: 1 });
    const one = deserialize(putRecord('db1', 'c', bytes));
    const other = deserialize(putRecord('db2', 'another name', bytes));
    expect(one).toMatchObject({ d: 'db1', c: 'c' });
    expect(other).toMatchObject({ d: 'db2', c: 'another name' });
  });

  it('hands a document’s bytes out once', () => {
    const doc = { _id: 'x' };
    const bytes = serialize(doc);
    rememberEncoded(doc, bytes);
    expect(takeEncoded(doc)).toBe(bytes);
    expect(takeEncoded(doc)).toBeUndefined();
    expect(takeEncoded({ _id: 'x' })).toBeUndefined();
  });

  describe('an updated document, encoded by its size check', () => {
    const stored = { _id: 'u', n: 1, text: 'é' };

    it('keeps the encoding of the new version when the caller journals it, and only then', () => {
      const journaled = applyUpdate(stored, parseUpdate({ $inc: { n: 1 } }), { encode: true })!;
      expect(journaled).toEqual({ _id: 'u', n: 2, text: 'é' });
      expect(Buffer.compare(Buffer.from(takeEncoded(journaled)!), Buffer.from(serialize(journaled)))).toBe(0);
      const memoryOnly = applyUpdate(stored, parseUpdate({ $inc: { n: 1 } }), {})!;
      expect(takeEncoded(memoryOnly)).toBeUndefined();
    });

    it.each([
      ['just over the limit', 16 * 1024 * 1024],
      ['larger than the encoder’s 17 MiB buffer', 18 * 1024 * 1024],
    ])('refuses a new version %s with MongoDB’s error, journaled or not', (_label, length) => {
      const spec = parseUpdate({ $set: { big: 'x'.repeat(length) } });
      for (const encode of [true, false]) {
        expect(() => applyUpdate(stored, spec, { encode })).toThrow(
          expect.objectContaining({ code: 10334 }) as unknown as Error,
        );
      }
    });
  });
});
