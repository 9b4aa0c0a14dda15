import type { SealedPair } from '../../schemas/documents/connector';
import { AppError } from '../../schemas/errors';
import { deriveKey, seal, unseal } from '../vault/sealing';

/**
 * Headers and environment variables of connectors: sealed at rest (AES-256-GCM through
 * `actors/vault/sealing.ts`, a key derived from VAULT_MASTER_KEY, bound to the connector and the
 * name so a value cannot be moved to another connector or name), and masked when shown.
 */

/** What a credential-looking value is shown as. */
export const MASK = '[redacted]';

const SECRET_NAME =
  /auth|token|secret|passw|pwd|api[-_]?key|apikey|access[-_]?key|private|credential|cookie|session|signature|bearer|^key$|[-_]key$/i;
const SECRET_VALUE =
  /^(bearer|basic|token|digest)\s|^(sk|pk|rk)[-_][A-Za-z0-9]|^(ghp|gho|ghs|ghu|github_pat|glpat|xox[abprs]|AKIA|ASIA|AIza|ya29\.|eyJ)/i;

/** True when a header/variable should never be shown: by its name, or by what its value looks like. */
export function looksSecret(name: string, value: string): boolean {
  if (SECRET_NAME.test(name) || SECRET_VALUE.test(value)) return true;
  // Long unbroken strings mixing letters and digits are usually keys.
  return value.length >= 24 && !/\s/.test(value) && /[A-Za-z]/.test(value) && /[0-9]/.test(value);
}

/** Masks `--token=abc`, and the value after a credential-looking flag (`--api-key abc`). */
export function maskArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  let maskNext = false;
  for (const arg of args) {
    if (maskNext) {
      out.push(MASK);
      maskNext = false;
      continue;
    }
    const flag = /^(--?[A-Za-z0-9_-]+)(=(.*))?$/.exec(arg);
    if (flag && SECRET_NAME.test(flag[1])) {
      if (flag[2] === undefined) maskNext = true;
      out.push(flag[2] === undefined ? arg : `${flag[1]}=${MASK}`);
      continue;
    }
    out.push(looksSecret('', arg) ? MASK : arg);
  }
  return out;
}

/** A URL as shown: credential-looking query parameter values masked. */
export function maskUrl(raw: string): string {
  try {
    const url = new URL(raw);
    for (const [name, value] of [...url.searchParams.entries()]) {
      if (looksSecret(name, value)) url.searchParams.set(name, MASK);
    }
    return url.href;
  } catch {
    return MASK;
  }
}

/** Seals and opens connector values with a key derived from the vault master key. */
export class ConnectorSealer {
  private readonly key: Buffer;

  constructor(masterKey: Buffer) {
    this.key = deriveKey(masterKey, 'ars/connectors/v1');
  }

  seal(connectorId: string, name: string, value: string): string {
    return seal(this.key, value, `${connectorId}\u0000${name}`);
  }

  open(connectorId: string, name: string, sealed: string): string {
    const value = unseal(this.key, sealed, `${connectorId}\u0000${name}`);
    if (value === undefined) {
      // A changed VAULT_MASTER_KEY or a tampered document: say which, never the value.
      throw new AppError(
        'INTERNAL_ERROR',
        `connector ${connectorId}: cannot decrypt ${name} (was VAULT_MASTER_KEY changed?)`,
      );
    }
    return value;
  }

  sealAll(connectorId: string, values: Record<string, string> | undefined): SealedPair[] {
    return Object.entries(values ?? {}).map(([name, value]) => ({
      name,
      value: this.seal(connectorId, name, value),
      secret: looksSecret(name, value),
    }));
  }

  openAll(connectorId: string, pairs: readonly SealedPair[]): Record<string, string> {
    return Object.fromEntries(pairs.map((p) => [p.name, this.open(connectorId, p.name, p.value)]));
  }

  /** The pairs as shown: non-credential values in clear, the others masked. */
  showAll(connectorId: string, pairs: readonly SealedPair[]): Record<string, string> {
    return Object.fromEntries(
      pairs.map((p) => [p.name, p.secret ? MASK : this.open(connectorId, p.name, p.value)]),
    );
  }
}
