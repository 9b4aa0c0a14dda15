import { AppError } from '../../schemas/errors';
import {
  deriveKey,
  masterKeyId,
  openUnderHeldKeys,
  seal,
  sealedKeyId,
  sealKeyed,
  unseal,
  type HeldKey,
} from './sealing';

/** Where a secret value is stored: its ciphertext opens only for the same account, id and version. */
export interface SecretRef {
  accountId: string;
  secretId: string;
  valueVersion: number;
}

/** Hops a value makes between the front door and the actors, each bound to its own AAD. */
export type TransitPurpose = 'create' | 'rotate' | 'consume' | 'credential';

/** The keys derived from one master key, and its public id. */
interface KeyRing {
  id: string;
  storage: Buffer;
  transit: Buffer;
}

function ringOf(masterKey: Buffer): KeyRing {
  return {
    id: masterKeyId(masterKey),
    storage: deriveKey(masterKey, 'ars/vault/secrets/v1'),
    transit: deriveKey(masterKey, 'ars/vault/transit/v1'),
  };
}

/** A stored value opened, and the same value sealed anew under the current key when it was not. */
export interface OpenedSecret {
  value: string;
  /** Present when the stored value is not under the current master key: store this instead. */
  resealed?: string;
}

/**
 * The vault's two keys, both derived from VAULT_MASTER_KEY (HKDF-SHA256):
 *
 * - `ars/vault/secrets/v1` seals values at rest (`v2.<keyId>.…`). AAD = `vault-secret`, the
 *   account, the secret id and the value version, so a ciphertext moved to another secret (or
 *   replayed as another version of the same one) does not open.
 * - `ars/vault/transit/v1` seals values inside envelopes (front door ↔ actors), bound to the
 *   purpose and to the account, grant or credential, so the broker never carries a value in clear.
 *
 * **Rotation** (docs/vault.md): `previousKeys` are the master keys used before the current one.
 * A stored value names its key by id; one under a previous key opens, and `openSecretForUse`
 * hands back its re-sealing under the current key. A value under a key the cipher does not hold
 * is a clear error naming the key id (never garbage: GCM authenticates every value).
 */
export class VaultCipher {
  private readonly current: KeyRing;
  private readonly previous: KeyRing[];

  /** Storage keys, the current one first (openUnderHeldKeys). */
  private readonly storageKeys: HeldKey[];

  constructor(masterKey: Buffer, previousKeys: readonly Buffer[] = []) {
    this.current = ringOf(masterKey);
    this.previous = previousKeys.map(ringOf).filter((r) => r.id !== this.current.id);
    this.storageKeys = [this.current, ...this.previous].map((r) => ({ id: r.id, key: r.storage }));
  }

  /** The id of the current master key (the `<keyId>` of every value sealed now). */
  get keyId(): string {
    return this.current.id;
  }

  /** Whether a stored value is sealed under the current master key. */
  isCurrent(sealed: string): boolean {
    return sealedKeyId(sealed) === this.current.id;
  }

  sealSecret(ref: SecretRef, value: string): string {
    return sealKeyed(this.current.storage, this.current.id, value, secretAad(ref));
  }

  openSecret(ref: SecretRef, sealed: string): string {
    return this.openSecretForUse(ref, sealed).value;
  }

  /** Opens a stored value under whichever known key sealed it; see `OpenedSecret`. */
  openSecretForUse(ref: SecretRef, sealed: string): OpenedSecret {
    const opened = openUnderHeldKeys(this.storageKeys, sealed, secretAad(ref));
    // A v1 value carries no key id: opening under none of the keys reads as an unknown key.
    if ('unknownKeyId' in opened) throw unknownKey(ref, opened.unknownKeyId);
    if ('unreadable' in opened) {
      throw new AppError(
        'INTERNAL_ERROR',
        `vault secret ${ref.secretId}: cannot decrypt (was VAULT_MASTER_KEY changed, or the document altered?)`,
      );
    }
    const { value } = opened;
    return opened.underCurrent ? { value } : { value, resealed: this.sealSecret(ref, value) };
  }

  sealTransit(purpose: TransitPurpose, boundTo: string, value: string): string {
    return seal(this.current.transit, value, transitAad(purpose, boundTo));
  }

  /**
   * Opens a transit seal; one that does not open is a refused message (VALIDATION_ERROR), never a
   * value. Previous keys are tried too: during a rolling restart a process still on the previous
   * key may have sealed it.
   */
  openTransit(purpose: TransitPurpose, boundTo: string, sealed: string): string {
    for (const ring of [this.current, ...this.previous]) {
      const value = unseal(ring.transit, sealed, transitAad(purpose, boundTo));
      if (value !== undefined) return value;
    }
    throw new AppError('VALIDATION_ERROR', `sealed value does not open for ${purpose}`);
  }
}

/**
 * A value under a master key this process does not hold: an operator's configuration problem,
 * answered 503 (the grant is not burnt) with the key id to look for. Never carries the value.
 */
function unknownKey(ref: SecretRef, keyId: string | null): AppError {
  const which = keyId ? `master key ${keyId}` : 'a master key from before key ids';
  return new AppError(
    'UNAVAILABLE',
    `vault secret ${ref.secretId} is sealed under ${which}, which this service does not hold: ` +
      'set VAULT_MASTER_KEY_PREVIOUS to that key (VAULT_MASTER_KEY was changed)',
    { reason: 'vault_key_unknown', keyId, secretId: ref.secretId },
    { retryable: false },
  );
}

function secretAad(ref: SecretRef): string {
  return ['vault-secret', ref.accountId, ref.secretId, String(ref.valueVersion)].join('\u0000');
}

function transitAad(purpose: TransitPurpose, boundTo: string): string {
  return ['vault-transit', purpose, boundTo].join('\u0000');
}

/**
 * What is shown instead of a value: `••••`, plus its last 2 characters when it is at least 16
 * characters long (enough to tell two versions apart without giving away a short value).
 */
export function maskValue(value: string): string {
  const chars = [...value];
  return chars.length >= 16 ? `••••${chars.slice(-2).join('')}` : '••••';
}
