import { AppError } from '../../schemas/errors';
import { deriveKey, seal, unseal } from './sealing';

/** Where a secret value is stored: its ciphertext opens only for the same account, id and version. */
export interface SecretRef {
  accountId: string;
  secretId: string;
  valueVersion: number;
}

/** Hops a value makes between the front door and the actors, each bound to its own AAD. */
export type TransitPurpose = 'create' | 'rotate' | 'consume' | 'credential';

/**
 * The vault's two keys, both derived from VAULT_MASTER_KEY (HKDF-SHA256):
 *
 * - `ars/vault/secrets/v1` seals values at rest. AAD = `vault-secret`, the account, the secret id
 *   and the value version, so a ciphertext moved to another secret (or replayed as another
 *   version of the same one) does not open.
 * - `ars/vault/transit/v1` seals values inside envelopes (front door ↔ actors), bound to the
 *   purpose and to the account, grant or credential, so the broker never carries a value in clear.
 */
export class VaultCipher {
  private readonly storageKey: Buffer;
  private readonly transitKey: Buffer;

  constructor(masterKey: Buffer) {
    this.storageKey = deriveKey(masterKey, 'ars/vault/secrets/v1');
    this.transitKey = deriveKey(masterKey, 'ars/vault/transit/v1');
  }

  sealSecret(ref: SecretRef, value: string): string {
    return seal(this.storageKey, value, secretAad(ref));
  }

  openSecret(ref: SecretRef, sealed: string): string {
    const value = unseal(this.storageKey, sealed, secretAad(ref));
    if (value === undefined) {
      throw new AppError(
        'INTERNAL_ERROR',
        `vault secret ${ref.secretId}: cannot decrypt (was VAULT_MASTER_KEY changed, or the document altered?)`,
      );
    }
    return value;
  }

  sealTransit(purpose: TransitPurpose, boundTo: string, value: string): string {
    return seal(this.transitKey, value, transitAad(purpose, boundTo));
  }

  /** Opens a transit seal; one that does not open is a refused message (VALIDATION_ERROR), never a value. */
  openTransit(purpose: TransitPurpose, boundTo: string, sealed: string): string {
    const value = unseal(this.transitKey, sealed, transitAad(purpose, boundTo));
    if (value === undefined) {
      throw new AppError('VALIDATION_ERROR', `sealed value does not open for ${purpose}`);
    }
    return value;
  }
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
