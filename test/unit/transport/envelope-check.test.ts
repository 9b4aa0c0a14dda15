import { ActorAddressSchema, EnvelopeSchema } from '../../../schemas/envelope';
import { assertAddress, assertType } from '../../../src/kernel/envelopes';
import { isEnvelope, readEnvelope } from '../../../src/transport/envelope-check';

const base = {
  v: 1,
  id: 'abc',
  type: 'execution.pause',
  to: 'execution:exe_1',
  deadline: 1_700_000_000_000,
  attempt: 1,
  body: { a: [1, 2] },
};

const valid: unknown[] = [
  base,
  { ...base, from: 'agent:1', correlationId: 'c', replyTo: 'node-1' },
  { ...base, from: undefined, replyTo: undefined, auth: undefined },
  { ...base, body: undefined },
  { ...base, body: null },
  { ...base, deadline: 0, attempt: 3 },
  { ...base, auth: {} },
  { ...base, auth: { accountId: 'a', agentId: 'g', scopes: ['x', 'y'], extra: 1 } },
  { ...base, unknownField: 'dropped' },
  { ...base, id: 'x'.repeat(200), to: 'y'.repeat(256), from: 'f'.repeat(256) },
  { ...base, type: 'a.b.c_d-E' },
  { ...base, type: 'kernel.reply', to: '*' },
];

const { body: _body, ...withoutBody } = base;
const invalid: unknown[] = [
  null,
  undefined,
  'envelope',
  42,
  [],
  [base],
  {},
  withoutBody,
  { ...base, v: 2 },
  { ...base, v: '1' },
  { ...base, id: '' },
  { ...base, id: 'x'.repeat(201) },
  { ...base, id: 7 },
  { ...base, type: 'nodot' },
  { ...base, type: 'Upper.case' },
  { ...base, type: 'a..b' },
  { ...base, type: 'a.b ' },
  { ...base, to: '' },
  { ...base, to: 'y'.repeat(257) },
  { ...base, from: 'f'.repeat(257) },
  { ...base, from: null },
  { ...base, correlationId: 'c'.repeat(201) },
  { ...base, replyTo: 5 },
  { ...base, deadline: -1 },
  { ...base, deadline: 1.5 },
  { ...base, deadline: Number.NaN },
  { ...base, deadline: Infinity },
  { ...base, deadline: 2 ** 53 },
  { ...base, deadline: '1' },
  { ...base, attempt: 0 },
  { ...base, attempt: 1.5 },
  { ...base, auth: null },
  { ...base, auth: 'me' },
  { ...base, auth: [] },
  { ...base, auth: { accountId: 1 } },
  { ...base, auth: { agentId: null } },
  { ...base, auth: { scopes: 'x' } },
  { ...base, auth: { scopes: ['x', 1] } },
];

describe('readEnvelope', () => {
  it('accepts what EnvelopeSchema accepts, with the same result', () => {
    for (const value of valid) {
      const parsed = EnvelopeSchema.safeParse(value);
      expect(parsed.success).toBe(true);
      expect(readEnvelope(value)).toEqual(parsed.data);
    }
  });

  it('rejects what EnvelopeSchema rejects', () => {
    for (const value of invalid) {
      expect([value, EnvelopeSchema.safeParse(value).success]).toEqual([value, false]);
      expect([value, readEnvelope(value)]).toEqual([value, undefined]);
    }
  });

  it('returns a new object without unknown fields (the body and auth are the values given)', () => {
    const input = { ...base, unknownField: 1, auth: { accountId: 'a' } };
    const envelope = readEnvelope(input)!;
    expect(envelope).not.toBe(input);
    expect(envelope).not.toHaveProperty('unknownField');
    expect(envelope.body).toBe(input.body);
  });
});

describe('isEnvelope', () => {
  it('accepts exactly what readEnvelope accepts', () => {
    for (const value of valid) expect([value, isEnvelope(value)]).toEqual([value, true]);
    for (const value of invalid) expect([value, isEnvelope(value)]).toEqual([value, false]);
  });
});

describe('assertAddress and assertType', () => {
  it('agree with ActorAddressSchema and the envelope type schema', () => {
    const addresses = [
      'a:1',
      'exec-2:x/y',
      'a:' + 'z'.repeat(200),
      'a:' + 'z'.repeat(201),
      'A:1',
      'a:',
      ':1',
      'a: 1',
      'a1',
      '1a:x',
    ];
    for (const to of addresses) {
      const ok = ActorAddressSchema.safeParse(to).success;
      expect([to, ok ? 'ok' : 'rejected']).toEqual([to, attempt(() => assertAddress(to))]);
    }
    const types = ['a.b', 'a.b.c', 'aB.c', 'a', 'A.b', 'a.', '.a', 'a.b c', 'a_b.c-d'];
    for (const type of types) {
      const ok = EnvelopeSchema.shape.type.safeParse(type).success;
      expect([type, ok ? 'ok' : 'rejected']).toEqual([type, attempt(() => assertType(type))]);
    }
    expect(attempt(() => assertAddress(42 as never))).toBe('rejected');
  });
});

function attempt(fn: () => void): 'ok' | 'rejected' {
  try {
    fn();
    return 'ok';
  } catch (err) {
    expect(err).toMatchObject({ code: 'VALIDATION_ERROR' });
    return 'rejected';
  }
}
