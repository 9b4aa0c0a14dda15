import {
  idempotencyScope,
  parseIdempotencyKey,
  requestFingerprint,
} from '../../../../src/http/idempotency/idempotency-key';

describe('requestFingerprint', () => {
  it('is the same for equal JSON whatever the order of object keys, and differs otherwise', () => {
    const a = requestFingerprint(['POST', '/x', { b: [1, { d: 2, c: 3 }], a: 'x' }]);
    expect(requestFingerprint(['POST', '/x', { a: 'x', b: [1, { c: 3, d: 2 }] }])).toBe(a);
    expect(requestFingerprint(['POST', '/x', { a: 'x', b: [{ c: 3, d: 2 }, 1] }])).not.toBe(a);
    expect(requestFingerprint(['POST', '/y', { a: 'x', b: [1, { c: 3, d: 2 }] }])).not.toBe(a);
    // Types and shapes that print alike are told apart.
    const distinct = [
      1,
      '1',
      true,
      'true',
      null,
      'null',
      [],
      {},
      [[]],
      [{}],
      { a: [] },
      { a: {} },
      ['a', 'b'],
      ['ab'],
    ];
    expect(new Set(distinct.map((v) => requestFingerprint([v]))).size).toBe(distinct.length);
    // A missing property and an undefined one are the same JSON body.
    expect(requestFingerprint([{ a: 1, b: undefined }])).toBe(requestFingerprint([{ a: 1 }]));
  });

  it('hashes a body nested far deeper than the stack allows recursion', () => {
    const deep = JSON.parse('['.repeat(200_000) + ']'.repeat(200_000)) as unknown;
    expect(requestFingerprint([deep])).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('parseIdempotencyKey and idempotencyScope', () => {
  it('accepts a quoted key as the IETF draft writes it, and names the field it checked', () => {
    expect(parseIdempotencyKey('"abcd-1234"')).toBe('abcd-1234');
    expect(() => parseIdempotencyKey(['a', 'b'])).toThrow(/Invalid Idempotency-Key: it must be a string/);
    expect(() => parseIdempotencyKey('tiny', 'params._meta')).toThrow(/^Invalid params._meta: /);
  });

  it('scopes keys by account, agent and named token', () => {
    const account = { subjectType: 'account', accountId: 'acc_1', via: 'bearer' } as const;
    expect(idempotencyScope(account)).toBe('account:acc_1');
    expect(idempotencyScope({ ...account, via: 'session' })).toBe('account:acc_1');
    expect(idempotencyScope({ ...account, tokenId: 'tok_9' })).toBe('account:acc_1:token:tok_9');
    expect(
      idempotencyScope({ subjectType: 'agent', agentId: 'agt_2', accountId: 'acc_1', via: 'bearer' }),
    ).toBe('agent:agt_2:acc_1');
    expect(idempotencyScope({ subjectType: 'agent', agentId: 'agt_3', via: 'bearer' })).not.toBe(
      idempotencyScope({ subjectType: 'agent', agentId: 'agt_2', via: 'bearer' }),
    );
  });
});
