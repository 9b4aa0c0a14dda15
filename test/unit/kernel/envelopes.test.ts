import { ReplyBodySchema } from '../../../schemas/envelope';
import { readReplyBody } from '../../../src/kernel/envelopes';

describe('readReplyBody', () => {
  const valid = [
    { kind: 'reply', value: 1 },
    { kind: 'reply', value: null },
    { kind: 'reply', value: { a: [1] } },
    { kind: 'next', seq: 0, value: 'x' },
    { kind: 'next', seq: 7, value: undefined },
    { kind: 'complete', seq: 3 },
    { kind: 'error', error: { error: 'No', code: 'NOT_FOUND' } },
    { kind: 'error', error: { error: 'No', code: 'NOT_FOUND', extra: 1 } },
  ];
  const invalid = [
    null,
    undefined,
    'reply',
    42,
    {},
    { kind: 'other' },
    { kind: 'next', seq: -1, value: 1 },
    { kind: 'next', seq: 1.5, value: 1 },
    { kind: 'next', seq: '1', value: 1 },
    { kind: 'complete' },
    { kind: 'error' },
    { kind: 'error', error: 'boom' },
    { kind: 'error', error: { error: 'x' } },
    { kind: 'error', error: { code: 'X' } },
  ];

  it('accepts what ReplyBodySchema accepts and rejects what it rejects', () => {
    for (const body of valid) {
      expect(ReplyBodySchema.safeParse(body).success).toBe(true);
      expect(readReplyBody(body)).toBe(body);
    }
    for (const body of invalid) {
      expect(ReplyBodySchema.safeParse(body).success).toBe(false);
      expect(readReplyBody(body)).toBeUndefined();
    }
  });

  it('reads a reply whose undefined value JSON dropped as an undefined value', () => {
    const overTheWire = JSON.parse(JSON.stringify({ kind: 'reply', value: undefined }));
    expect(readReplyBody(overTheWire)).toEqual({ kind: 'reply' });
  });
});
