import type { SealedPair } from '../../schemas/documents/connector';
import { AppError } from '../../schemas/errors';
import {
  deriveKey,
  masterKeyId,
  openUnderHeldKeys,
  sealedKeyId,
  sealKeyed,
  type HeldKey,
} from '../vault/sealing';

/**
 * Headers and environment variables of connectors: sealed at rest (AES-256-GCM through
 * `actors/vault/sealing.ts`, a key derived from VAULT_MASTER_KEY, bound to the connector and the
 * name so a value cannot be moved to another connector or name; `v2.<keyId>.…` so that a master
 * key rotation can tell which key opens a value), and masked when shown.
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

/** Where a sealed value lives: `headers` (http) or `env` (stdio). */
export type SealedField = 'headers' | 'env';

/** What an error says about the connector: its slug (`MCP connector "x"`), never its internal id. */
export interface ConnectorRef {
  _id: string;
  slug: string;
}

/** A connector's values opened, and the pairs to store instead when some were not under the current key. */
export interface OpenedPairs {
  values: Record<string, string>;
  /** Present when at least one value was not under the current master key: the whole list, re-sealed. */
  resealed?: SealedPair[];
}

/** `details.reason` of a value under a master key this service does not hold (503). */
export const CONNECTOR_KEY_UNKNOWN = 'connector_key_unknown';
/** `details.reason` of a value under a known key that does not open: an altered document (500). */
export const CONNECTOR_VALUE_UNREADABLE = 'connector_value_unreadable';

/** The connectors' key derived from one master key, and the master key's public id. */
function connectorKeyOf(masterKey: Buffer): HeldKey {
  return { id: masterKeyId(masterKey), key: deriveKey(masterKey, 'ars/connectors/v1') };
}

/**
 * Seals and opens connector values with a key derived from the vault master key (HKDF,
 * `ars/connectors/v1`), AAD = the connector id and the name.
 *
 * **Rotation** (docs/connectors.md, docs/vault.md "Master key rotation"): values are sealed as
 * `v2.<keyId>.…` under the current master key; `previousKeys` (VAULT_MASTER_KEY_PREVIOUS) open
 * values sealed before a rotation, which are handed back re-sealed under the current key. Values
 * from before key ids (`v1.…`) are tried under every key held, the current one first (the GCM tag
 * decides), and re-sealed too. A value under a key not held is a clear error naming the connector,
 * the header or variable and the key id, never the value.
 */
export class ConnectorSealer {
  private readonly current: HeldKey;
  /** The current key first, then the previous ones (openUnderHeldKeys). */
  private readonly held: HeldKey[];

  constructor(masterKey: Buffer, previousKeys: readonly Buffer[] = []) {
    this.current = connectorKeyOf(masterKey);
    const previous = previousKeys.map(connectorKeyOf).filter((k) => k.id !== this.current.id);
    this.held = [this.current, ...previous];
  }

  /** The id of the current master key (the `<keyId>` of every value sealed now). */
  get keyId(): string {
    return this.current.id;
  }

  /** Whether a stored value is sealed under the current master key (and so needs no re-sealing). */
  isCurrent(sealed: string): boolean {
    return sealedKeyId(sealed) === this.current.id;
  }

  seal(connectorId: string, name: string, value: string): string {
    return sealKeyed(this.current.key, this.current.id, value, aadOf(connectorId, name));
  }

  /** Opens one value; throws (CONNECTOR_KEY_UNKNOWN, CONNECTOR_VALUE_UNREADABLE) without the value. */
  open(connectorId: string, name: string, sealed: string): string {
    return this.openValue({ _id: connectorId, slug: '' }, undefined, name, sealed).value;
  }

  sealAll(connectorId: string, values: Record<string, string> | undefined): SealedPair[] {
    return Object.entries(values ?? {}).map(([name, value]) => ({
      name,
      value: this.seal(connectorId, name, value),
      secret: looksSecret(name, value),
    }));
  }

  /**
   * Opens a connector's `headers` or `env` for use; see `OpenedPairs`. The first value that does
   * not open throws, naming the connector (slug) and that header or variable.
   */
  openPairs(ref: ConnectorRef, field: SealedField, pairs: readonly SealedPair[]): OpenedPairs {
    const values: Record<string, string> = {};
    let stale = false;
    const resealed = pairs.map((p) => {
      const opened = this.openValue(ref, field, p.name, p.value);
      values[p.name] = opened.value;
      if (opened.resealed === undefined) return p;
      stale = true;
      return { ...p, value: opened.resealed };
    });
    return stale ? { values, resealed } : { values };
  }

  /**
   * The pairs as shown: non-credential values in clear, the others masked. Never throws: a value
   * that does not open (a master key not held) is masked; the connector's health says why.
   */
  showAll(connectorId: string, pairs: readonly SealedPair[]): Record<string, string> {
    return Object.fromEntries(
      pairs.map((p) => [p.name, p.secret ? MASK : (this.tryOpen(connectorId, p.name, p.value) ?? MASK)]),
    );
  }

  private tryOpen(connectorId: string, name: string, sealed: string): string | undefined {
    try {
      return this.open(connectorId, name, sealed);
    } catch {
      return undefined;
    }
  }

  private openValue(
    ref: ConnectorRef,
    field: SealedField | undefined,
    name: string,
    sealed: string,
  ): { value: string; resealed?: string } {
    const opened = openUnderHeldKeys(this.held, sealed, aadOf(ref._id, name));
    if ('unknownKeyId' in opened) throw unknownKey(ref, field, name, opened.unknownKeyId);
    if ('unreadable' in opened) {
      throw new AppError(
        'INTERNAL_ERROR',
        `${connectorLabel(ref)}: cannot decrypt ${fieldLabel(field, name)} (was the document altered?)`,
        { reason: CONNECTOR_VALUE_UNREADABLE },
      );
    }
    const { value } = opened;
    return opened.underCurrent ? { value } : { value, resealed: this.seal(ref._id, name, value) };
  }
}

function aadOf(connectorId: string, name: string): string {
  return `${connectorId}\u0000${name}`;
}

/** `MCP connector "x"` as the other connector errors say it; the internal id only when no slug is known. */
function connectorLabel(ref: ConnectorRef): string {
  return ref.slug ? `MCP connector "${ref.slug}"` : `connector ${ref._id}`;
}

function fieldLabel(field: SealedField | undefined, name: string): string {
  if (field === undefined) return `value ${name}`;
  return field === 'headers' ? `header ${name}` : `environment variable ${name}`;
}

/**
 * A value under a master key this process does not hold: the operator changed VAULT_MASTER_KEY
 * without VAULT_MASTER_KEY_PREVIOUS. 503, not retryable (it will not heal by itself), naming the
 * connector, the header or variable and the key id; never the value.
 */
function unknownKey(
  ref: ConnectorRef,
  field: SealedField | undefined,
  name: string,
  keyId: string | null,
): AppError {
  const which = keyId ? `master key ${keyId}` : 'a master key this service does not hold';
  const held = keyId ? ', which this service does not hold' : '';
  return new AppError(
    'UNAVAILABLE',
    `${connectorLabel(ref)}: ${fieldLabel(field, name)} is sealed under ${which}${held}: ` +
      'set VAULT_MASTER_KEY_PREVIOUS to that key (VAULT_MASTER_KEY was changed)',
    {
      reason: CONNECTOR_KEY_UNKNOWN,
      keyId,
      ...(ref.slug ? { slug: ref.slug } : {}),
      [field === 'headers' ? 'header' : field === 'env' ? 'variable' : 'name']: name,
    },
    { retryable: false },
  );
}
