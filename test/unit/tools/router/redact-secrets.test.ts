import { REDACTED, redactSecrets, redactText } from '../../../../actors/tools/router/redact-secrets';

describe('redactText', () => {
  it.each([
    ['KEY=sk-abc123', 'KEY=[redacted]'],
    ['OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwx', 'OPENAI_API_KEY=[redacted]'],
    ['export DB_PASSWORD="hunter2" next', 'export DB_PASSWORD="[redacted]" next'],
    ['GITHUB_TOKEN: ghx-123 rest', 'GITHUB_TOKEN: [redacted] rest'],
    ['password=hunter2&user=bob', 'password=[redacted]&user=bob'],
    ['{"api_key": "abc123", "name": "x"}', '{"api_key": "[redacted]", "name": "x"}'],
    ['client_secret=abc', 'client_secret=[redacted]'],
    ['Authorization: Bearer abcdefgh.ijk-lmn', 'Authorization: Bearer [redacted]'],
    ['curl -H "Authorization: Basic dXNlcjpwYXNz"', 'curl -H "Authorization: Basic [redacted]"'],
    ['aws AKIAIOSFODNN7EXAMPLE here', `aws ${REDACTED} here`],
    ['sts ASIAIOSFODNN7EXAMPLE', `sts ${REDACTED}`],
    ['key sk-proj-abcdefghijklmnop1234 end', `key ${REDACTED} end`],
    ['stripe sk_live_abcdefghijklmnop1234', `stripe ${REDACTED}`],
    ['gh ghp_abcdefghijklmnopqrstuvwxyz0123456789', `gh ${REDACTED}`],
    ['slack xoxb-1234567890-abcdef', `slack ${REDACTED}`],
    ['jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abcdefghijklmnop done', `jwt ${REDACTED} done`],
    ['postgres://user:s3cret@db.example.com/x', 'postgres://user:[redacted]@db.example.com/x'],
  ])('%s', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it('redacts private key blocks, and a block cut off before its END line', () => {
    const block = '-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\ndef\n-----END RSA PRIVATE KEY-----';
    expect(redactText(`before\n${block}\nafter`)).toBe('before\n[redacted private key]\nafter');
    expect(redactText('x -----BEGIN PRIVATE KEY-----\nMIIEcut')).toBe('x [redacted private key]');
    expect(redactText(`${block}\nmiddle\n${block}`)).toBe(
      '[redacted private key]\nmiddle\n[redacted private key]',
    );
  });

  it('leaves ordinary text alone (the same string)', () => {
    for (const text of [
      'hello world',
      'the keyboard is nice',
      'key=foo monkey=banana author: John',
      'tokens used: 5',
      'https://example.com/a:b@c',
    ]) {
      expect(redactText(text)).toBe(text);
    }
  });

  it('stays linear on hostile 1 MB inputs', () => {
    const hostile = [
      '-----BEGIN PRIVATE KEY-----'.repeat(40_000),
      'a-'.repeat(500_000),
      'KEY'.repeat(350_000),
      'x.'.repeat(500_000) + '://',
      'Bearer '.repeat(150_000),
    ];
    const started = Date.now();
    for (const text of hostile) redactText(text);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe('redactSecrets', () => {
  it('walks objects and arrays, and blanks properties named like secrets', () => {
    const input = {
      stdout: 'KEY=sk-1\n',
      nested: [{ apiKey: 'y', OPENAI_API_KEY: 'z', password: 'p', ok: 'fine', count: 3 }],
      headers: { authorization: 'Basic abc', 'content-type': 'text/plain' },
      token_count: 4,
    };
    expect(redactSecrets(input)).toEqual({
      stdout: 'KEY=[redacted]\n',
      nested: [{ apiKey: REDACTED, OPENAI_API_KEY: REDACTED, password: REDACTED, ok: 'fine', count: 3 }],
      headers: { authorization: REDACTED, 'content-type': 'text/plain' },
      token_count: 4,
    });
    expect(input.stdout).toBe('KEY=sk-1\n'); // the input is not modified
  });

  it('returns the same object when nothing is secret', () => {
    const value = { a: 'x', b: [1, 'y', { c: null }], d: true };
    expect(redactSecrets(value)).toBe(value);
    expect(redactSecrets(true)).toBe(true);
    expect(redactSecrets(null)).toBeNull();
  });
});
