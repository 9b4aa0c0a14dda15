import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Sealing of values at rest and in transit: AES-256-GCM with a fresh random 12-byte IV per seal,
 * the 16-byte authentication tag, and associated data (AAD) that binds the ciphertext to where it
 * belongs, so a sealed value copied to another document, field or purpose does not open.
 *
 * Format: `v1.<iv>.<tag>.<ciphertext>`, each part base64url. Used by the vault (secrets, transit)
 * and the connectors (headers, environment), each under its own key derived from VAULT_MASTER_KEY.
 */

const FORMAT = 'v1';
const ALGORITHM = 'aes-256-gcm';
const TAG_BYTES = 16;

/**
 * A 32-byte key for one purpose, derived from the master key (HKDF-SHA256, empty salt, `label` as
 * info): the vault and the connectors never share a key, and neither uses the master key itself.
 */
export function deriveKey(masterKey: Buffer, label: string): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), label, 32));
}

/** Seals `plaintext` (UTF-8) under `key`, bound to `aad`. */
export function seal(key: Buffer, plaintext: string, aad: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [
    FORMAT,
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    ct.toString('base64url'),
  ].join('.');
}

/**
 * Opens a sealed value; `undefined` when it cannot be opened (another key, another `aad`, a
 * tampered or malformed value). Callers turn that into their own error, without the value.
 */
export function unseal(key: Buffer, sealed: string, aad: string): string | undefined {
  const [v, iv, tag, ct, extra] = sealed.split('.');
  if (v !== FORMAT || !iv || !tag || ct === undefined || extra !== undefined) return undefined;
  try {
    // An explicit tag length: without it GCM would accept a truncated (forgeable) tag.
    const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64url'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
