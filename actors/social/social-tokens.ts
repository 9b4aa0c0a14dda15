import { errors } from '../../schemas/errors';
import type { Secrets } from '../../src/config/secrets';
import { deriveKey, masterKeyId, openUnderHeldKeys, sealKeyed, type HeldKey } from '../vault/sealing';

/** Which token a sealed value is: bound into its AAD, so an access token cannot pass for a refresh token. */
export type TokenKind = 'access' | 'refresh' | 'pkce-verifier';

const LABEL = 'ars/social/tokens/v1';

/**
 * Sealing of X tokens (and PKCE verifiers) at rest under the vault's master key: AES-256-GCM via
 * `actors/vault/sealing.ts`, with a key of its own derived from VAULT_MASTER_KEY (HKDF label
 * `ars/social/tokens/v1`), in the keyed `v2` format so a master key rotation
 * (VAULT_MASTER_KEY_PREVIOUS) still opens them. The AAD binds a value to its account document and
 * kind. Values are opened only to call X, never returned nor logged.
 */
export class SocialTokenCipher {
  private readonly keys: HeldKey[];

  constructor(secrets: Pick<Secrets, 'vaultMasterKey' | 'vaultPreviousMasterKeys'>) {
    this.keys = [secrets.vaultMasterKey, ...(secrets.vaultPreviousMasterKeys ?? [])].map((master) => ({
      id: masterKeyId(master),
      key: deriveKey(master, LABEL),
    }));
  }

  seal(ownerId: string, kind: TokenKind, value: string): string {
    const current = this.keys[0]!;
    return sealKeyed(current.key, current.id, value, aad(ownerId, kind));
  }

  open(ownerId: string, kind: TokenKind, sealed: string): string {
    const opened = openUnderHeldKeys(this.keys, sealed, aad(ownerId, kind));
    if ('value' in opened) return opened.value;
    throw errors.unavailable(
      'A stored X token cannot be opened (master key changed?): reconnect the account',
      {
        reason: 'token_unreadable',
      },
    );
  }
}

function aad(ownerId: string, kind: TokenKind): string {
  return `social-token\u0000${ownerId}\u0000${kind}`;
}
