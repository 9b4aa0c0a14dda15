import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Sealing of values at rest and in transit: AES-256-GCM with a fresh random 12-byte IV per seal,
 * the 16-byte authentication tag, and associated data (AAD) that binds the ciphertext to where it
 * belongs, so a sealed value copied to another document, field or purpose does not open.
 *
 * Formats, each part base64url:
 * - `v1.<iv>.<tag>.<ciphertext>` (`seal`): transit seals, and vault values and connector values
 *   stored before key ids existed;
 * - `v2.<keyId>.<iv>.<tag>.<ciphertext>` (`sealKeyed`): values at rest, the vault's and the
 *   connectors' (headers, environment: `actors/connectors/connector-secrets.ts`). `keyId` names the
 *   master key (`masterKeyId`, not the key itself) so that after a rotation each stored value says
 *   which key opens it (docs/vault.md, "Master key rotation"). The key id is bound into the AAD.
 */

const FORMAT = 'v1';
const KEYED_FORMAT = 'v2';
const ALGORITHM = 'aes-256-gcm';
const TAG_BYTES = 16;

/**
 * A 32-byte key for one purpose, derived from the master key (HKDF-SHA256, empty salt, `label` as
 * info): the vault and the connectors never share a key, and neither uses the master key itself.
 */
export function deriveKey(masterKey: Buffer, label: string): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), label, 32));
}

/**
 * A public name of a master key: 6 bytes of HKDF-SHA256 under its own label, as 12 hex
 * characters. It tells keys apart and reveals nothing usable about the key.
 */
export function masterKeyId(masterKey: Buffer): string {
  return deriveKey(masterKey, 'ars/vault/key-id/v1').subarray(0, 6).toString('hex');
}

/** Seals `plaintext` (UTF-8) under `key`, bound to `aad`. */
export function seal(key: Buffer, plaintext: string, aad: string): string {
  return [FORMAT, ...gcmSeal(key, plaintext, aad)].join('.');
}

/**
 * Opens a sealed value; `undefined` when it cannot be opened (another key, another `aad`, a
 * tampered or malformed value). Callers turn that into their own error, without the value.
 */
export function unseal(key: Buffer, sealed: string, aad: string): string | undefined {
  const [v, iv, tag, ct, extra] = sealed.split('.');
  if (v !== FORMAT || !iv || !tag || ct === undefined || extra !== undefined) return undefined;
  return gcmOpen(key, iv, tag, ct, aad);
}

/** Seals under `key` in the `v2` format, naming the master key it derives from (`keyId`). */
export function sealKeyed(key: Buffer, keyId: string, plaintext: string, aad: string): string {
  return [KEYED_FORMAT, keyId, ...gcmSeal(key, plaintext, keyedAad(keyId, aad))].join('.');
}

/** Opens a `v2` value sealed under `key`; `undefined` as `unseal` (a `v1` value included). */
export function unsealKeyed(key: Buffer, sealed: string, aad: string): string | undefined {
  const [v, keyId, iv, tag, ct, extra] = sealed.split('.');
  if (v !== KEYED_FORMAT || !keyId || !iv || !tag || ct === undefined || extra !== undefined) {
    return undefined;
  }
  return gcmOpen(key, iv, tag, ct, keyedAad(keyId, aad));
}

/** The key id of a `v2` value, `null` for a `v1` value (no key id), `undefined` for anything else. */
export function sealedKeyId(sealed: string): string | null | undefined {
  const [v, keyId] = sealed.split('.', 2);
  if (v === FORMAT) return null;
  if (v === KEYED_FORMAT && keyId && /^[0-9a-f]{12}$/.test(keyId)) return keyId;
  return undefined;
}

/** A key derived from one master key, named by that master key's id (`masterKeyId`). */
export interface HeldKey {
  readonly id: string;
  readonly key: Buffer;
}

/** What `openUnderHeldKeys` found. */
export type HeldKeyOpening =
  /** Opened; `underCurrent` when a `v2` value under `keys[0]` (otherwise the caller re-seals it). */
  | { value: string; underCurrent: boolean }
  /** No held key fits: the id the value names (`null`: a `v1` value no key opens). */
  | { unknownKeyId: string | null }
  /** The key it names is held but does not open it (a document altered, a value malformed). */
  | { unreadable: true };

/**
 * Opens a stored value under whichever held key sealed it, `keys[0]` being the current one: a `v2`
 * value under the key it names, a `v1` value (from before key ids) under each key in turn, the
 * current one first (the GCM tag decides). One rule for every store that rotates with the master
 * key (vault secrets, connector headers and env).
 */
export function openUnderHeldKeys(keys: readonly HeldKey[], sealed: string, aad: string): HeldKeyOpening {
  const keyId = sealedKeyId(sealed);
  if (typeof keyId === 'string') {
    const held = keys.find((k) => k.id === keyId);
    if (!held) return { unknownKeyId: keyId };
    const value = unsealKeyed(held.key, sealed, aad);
    return value === undefined ? { unreadable: true } : { value, underCurrent: held === keys[0] };
  }
  if (keyId === null) {
    for (const held of keys) {
      const value = unseal(held.key, sealed, aad);
      if (value !== undefined) return { value, underCurrent: false }; // v1: re-sealed as v2
    }
    return { unknownKeyId: null };
  }
  return { unreadable: true };
}

function keyedAad(keyId: string, aad: string): string {
  return `${keyId}\u0000${aad}`;
}

/** `[iv, tag, ciphertext]`, base64url. */
function gcmSeal(key: Buffer, plaintext: string, aad: string): [string, string, string] {
  const iv = randomBytes(12);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')];
}

function gcmOpen(key: Buffer, iv: string, tag: string, ct: string, aad: string): string | undefined {
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
