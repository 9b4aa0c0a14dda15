import { randomBytes } from 'node:crypto';
import { deriveKey, seal, unseal } from '../../../actors/vault/sealing';
import { maskValue, VaultCipher } from '../../../actors/vault/vault-cipher';

/** AES-256-GCM sealing (shared by the vault and the connectors) and the vault's two keys. */

describe('seal / unseal', () => {
  const key = deriveKey(randomBytes(32), 'test/v1');

  it('round-trips, with a fresh IV each time, in the v1 format', () => {
    const one = seal(key, 'hunter2 ✓', 'aad');
    const two = seal(key, 'hunter2 ✓', 'aad');
    expect(one).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(one).not.toBe(two);
    expect(unseal(key, one, 'aad')).toBe('hunter2 ✓');
    expect(unseal(key, two, 'aad')).toBe('hunter2 ✓');
    expect(unseal(key, seal(key, '', 'aad'), 'aad')).toBe('');
  });

  it('does not open under another AAD, another key, or after tampering', () => {
    const sealed = seal(key, 'value', 'secret-1');
    expect(unseal(key, sealed, 'secret-2')).toBeUndefined();
    expect(unseal(deriveKey(randomBytes(32), 'test/v1'), sealed, 'secret-1')).toBeUndefined();
    const [v, iv, tag, ct] = sealed.split('.');
    const flipped = Buffer.from(ct, 'base64url');
    flipped[0] ^= 1;
    expect(unseal(key, [v, iv, tag, flipped.toString('base64url')].join('.'), 'secret-1')).toBeUndefined();
    // A truncated tag is refused (GCM would otherwise accept 4-byte tags).
    const short = Buffer.from(tag, 'base64url').subarray(0, 4).toString('base64url');
    expect(unseal(key, [v, iv, short, ct].join('.'), 'secret-1')).toBeUndefined();
    for (const malformed of ['', 'v2.a.b.c', 'v1.a.b', `${sealed}.x`, 'v1..x.y']) {
      expect(unseal(key, malformed, 'secret-1')).toBeUndefined();
    }
  });

  it('derives distinct keys per label from one master key', () => {
    const master = randomBytes(32);
    expect(deriveKey(master, 'a/v1').equals(deriveKey(master, 'a/v1'))).toBe(true);
    expect(deriveKey(master, 'a/v1').equals(deriveKey(master, 'b/v1'))).toBe(false);
    expect(deriveKey(master, 'a/v1').equals(master)).toBe(false);
  });
});

describe('VaultCipher', () => {
  const cipher = new VaultCipher(randomBytes(32));
  const ref = { accountId: 'acc_1', secretId: 'vsec_1', valueVersion: 1 };

  it('binds a stored value to its account, secret and value version', () => {
    const sealed = cipher.sealSecret(ref, 'the value');
    expect(cipher.openSecret(ref, sealed)).toBe('the value');
    for (const other of [
      { ...ref, secretId: 'vsec_2' },
      { ...ref, valueVersion: 2 },
      { ...ref, accountId: 'acc_2' },
    ]) {
      expect(() => cipher.openSecret(other, sealed)).toThrow(/cannot decrypt/);
    }
    expect(() => new VaultCipher(randomBytes(32)).openSecret(ref, sealed)).toThrow(/VAULT_MASTER_KEY/);
    // The error never carries the value.
    try {
      cipher.openSecret({ ...ref, valueVersion: 9 }, sealed);
    } catch (err) {
      expect(JSON.stringify({ message: (err as Error).message, ...(err as object) })).not.toContain(
        'the value',
      );
    }
  });

  it('binds a transit seal to its purpose and target, under a key other than storage', () => {
    const sealed = cipher.sealTransit('consume', 'vgr_1', 'v');
    expect(cipher.openTransit('consume', 'vgr_1', sealed)).toBe('v');
    expect(() => cipher.openTransit('consume', 'vgr_2', sealed)).toThrow(/does not open/);
    expect(() => cipher.openTransit('create', 'vgr_1', sealed)).toThrow(/does not open/);
    const stored = cipher.sealSecret(ref, 'v');
    expect(() => cipher.openTransit('create', 'acc_1', stored)).toThrow();
  });

  it('masks: nothing of a short value, the last 2 characters of a long one', () => {
    expect(maskValue('short')).toBe('••••');
    expect(maskValue('x'.repeat(15))).toBe('••••');
    expect(maskValue('0123456789abcdef')).toBe('••••ef');
  });
});
