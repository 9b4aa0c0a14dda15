import { randomBytes } from 'node:crypto';
import {
  deriveKey,
  masterKeyId,
  seal,
  sealedKeyId,
  sealKeyed,
  unsealKeyed,
} from '../../../actors/vault/sealing';
import { VaultCipher } from '../../../actors/vault/vault-cipher';

/** Key ids in sealed values and the cipher's previous keys (docs/vault.md, "Master key rotation"). */
describe('keyed sealing (v2)', () => {
  const master = randomBytes(32);
  const key = deriveKey(master, 'test/v1');
  const kid = masterKeyId(master);

  it('names the master key by a stable id that is not the key', () => {
    expect(kid).toMatch(/^[0-9a-f]{12}$/);
    expect(masterKeyId(master)).toBe(kid);
    expect(masterKeyId(randomBytes(32))).not.toBe(kid);
    expect(master.toString('hex')).not.toContain(kid);
  });

  it('round-trips, carries its key id, and binds the key id', () => {
    const sealed = sealKeyed(key, kid, 'value ✓', 'aad');
    expect(sealed.startsWith(`v2.${kid}.`)).toBe(true);
    expect(sealedKeyId(sealed)).toBe(kid);
    expect(unsealKeyed(key, sealed, 'aad')).toBe('value ✓');
    expect(unsealKeyed(key, sealed, 'other')).toBeUndefined();
    // Relabelled with another key id: refused.
    expect(unsealKeyed(key, sealed.replace(kid, '000000000000'), 'aad')).toBeUndefined();
    expect(sealedKeyId(seal(key, 'v', 'aad'))).toBeNull();
    for (const malformed of ['', 'v3.a.b.c', 'v2.nothex.a.b.c', 'plain'])
      expect(sealedKeyId(malformed)).toBeUndefined();
  });
});

describe('VaultCipher with previous keys', () => {
  const key1 = randomBytes(32);
  const key2 = randomBytes(32);
  const ref = { accountId: 'acc_1', secretId: 'vsec_1', valueVersion: 1 };

  it('opens a value under a previous key and re-seals it under the current one', () => {
    const old = new VaultCipher(key1).sealSecret(ref, 'the value');
    const rotated = new VaultCipher(key2, [key1]);
    const opened = rotated.openSecretForUse(ref, old);
    expect(opened.value).toBe('the value');
    expect(opened.resealed).toMatch(new RegExp(`^v2\\.${masterKeyId(key2)}\\.`));
    expect(rotated.isCurrent(opened.resealed!)).toBe(true);
    // Under key 2 alone, the re-sealed value opens and needs nothing more.
    expect(new VaultCipher(key2).openSecretForUse(ref, opened.resealed!)).toEqual({ value: 'the value' });
  });

  it('opens a v1 value stored before key ids, and re-seals it', () => {
    const legacy = seal(
      deriveKey(key1, 'ars/vault/secrets/v1'),
      'legacy',
      ['vault-secret', 'acc_1', 'vsec_1', '1'].join('\u0000'),
    );
    const opened = new VaultCipher(key1).openSecretForUse(ref, legacy);
    expect(opened.value).toBe('legacy');
    expect(opened.resealed).toBeDefined();
  });

  it('answers a value under an unknown key with a clear 503 naming the key id, never the value', () => {
    const old = new VaultCipher(key1).sealSecret(ref, 'the value');
    let caught: unknown;
    try {
      new VaultCipher(key2).openSecret(ref, old);
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({
      code: 'UNAVAILABLE',
      status: 503,
      retryable: false,
      details: { reason: 'vault_key_unknown', keyId: masterKeyId(key1) },
    });
    expect((caught as Error).message).toMatch(/VAULT_MASTER_KEY_PREVIOUS/);
    expect(JSON.stringify({ m: (caught as Error).message, ...(caught as object) })).not.toContain(
      'the value',
    );
  });

  it('opens transit seals of a process still on the previous key', () => {
    const sealed = new VaultCipher(key1).sealTransit('consume', 'vgr_1', 'v');
    expect(new VaultCipher(key2, [key1]).openTransit('consume', 'vgr_1', sealed)).toBe('v');
    expect(() => new VaultCipher(key2).openTransit('consume', 'vgr_1', sealed)).toThrow(/does not open/);
  });
});
