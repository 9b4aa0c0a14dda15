import { errors } from '../../schemas/errors';

/** Keys that name a secret (`apiKey`, `client_secret`, `password`, `authToken`, …). */
const SECRET_KEY =
  /(secret|passw(or)?d|passphrase|token|api[_-]?key|private[_-]?key|access[_-]?key|credential|bearer)/i;

/** Values with the prefix of a well-known key format. */
const KEY_PREFIX =
  /^(sk|pk|rk)[-_](live|test)[-_]|^sk-[A-Za-z0-9]|^sdk_|^gh[pousr]_|^github_pat_|^xox[abposr]-|^AKIA[0-9A-Z]{12,}|^AIza[0-9A-Za-z_-]{20,}|^-----BEGIN [A-Z ]*PRIVATE KEY|^eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\./;

/** A long run of key-like characters with letters and digits mixed: a token, not prose or a URL. */
function looksRandom(value: string): boolean {
  if (value.length < 24 || !/^[A-Za-z0-9_\-+/=]+$/.test(value)) return false;
  // A UUID is an identifier, not a credential.
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((re) => re.test(value)).length;
  return classes >= 2 && /[0-9]/.test(value);
}

/** The path of the first secret-looking entry of `defaultConfig`, and why; undefined when clean. */
export function findSecretInConfig(
  value: unknown,
  path = 'defaultConfig',
): { field: string; why: 'key' | 'value' } | undefined {
  if (typeof value === 'string') {
    return KEY_PREFIX.test(value.trim()) || looksRandom(value.trim())
      ? { field: path, why: 'value' }
      : undefined;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findSecretInConfig(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const field = `${path}.${key}`;
      if (SECRET_KEY.test(key)) return { field, why: 'key' };
      const found = findSecretInConfig(inner, field);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Refuses a `defaultConfig` holding a secret (400 naming the field): an app's package is public,
 * so required secrets belong in `manifest.requiredSecrets` and in the vault.
 */
export function assertNoSecrets(defaultConfig: Record<string, unknown>): void {
  const found = findSecretInConfig(defaultConfig);
  if (!found) return;
  const what = found.why === 'key' ? 'is named like a secret' : 'looks like a key or token';
  throw errors.validation(
    `${found.field} ${what}: defaultConfig must not contain secrets; list the secret in manifest.requiredSecrets and assign it to the app in the vault`,
    { field: found.field },
  );
}
