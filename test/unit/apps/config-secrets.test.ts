import { assertNoSecrets, findSecretInConfig } from '../../../actors/apps/config-secrets';

describe('defaultConfig secret detection', () => {
  it.each([
    [{ theme: 'dark', pageSize: 20, currency: 'EUR' }],
    [{ endpoint: 'https://api.example.com/v1/ledger?page=2' }],
    [{ greeting: 'Hello there, this is a long sentence with spaces in it' }],
    [{ id: '550e8400-e29b-41d4-a716-446655440000' }],
    [{ columns: ['date', 'amount', 'counterparty'], nested: { depth: 3, enabled: true } }],
    [{ tokenizer: 'whitespace' }],
  ])('passes plain configuration %j', (config) => {
    // `tokenizer` contains "token": it is named like one, so it is refused (the safe side).
    const found = findSecretInConfig(config);
    if ('tokenizer' in config) expect(found).toEqual({ field: 'defaultConfig.tokenizer', why: 'key' });
    else expect(found).toBeUndefined();
  });

  it.each([
    [{ password: '' }, 'defaultConfig.password', 'key'],
    [{ stripe: 'sk_test_51HxYzABCdefGHIjklMNOpqr' }, 'defaultConfig.stripe', 'value'],
    [{ aws: { id: 'AKIAIOSFODNN7EXAMPLE' } }, 'defaultConfig.aws.id', 'value'],
    [{ jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc' }, 'defaultConfig.jwt', 'value'],
    [{ x: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc' }, 'defaultConfig.x', 'value'],
    [{ rows: [{ v: 'a1B2c3D4e5F6g7H8i9J0k1L2m3' }] }, 'defaultConfig.rows[0].v', 'value'],
  ])('finds the secret in %j at %s', (config, field, why) => {
    expect(findSecretInConfig(config)).toEqual({ field, why });
    expect(() => assertNoSecrets(config)).toThrow(field);
  });
});
