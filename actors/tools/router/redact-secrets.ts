/**
 * Secret redaction of tool results (ARCHITECTURE, convention 7; COMPATIBILITY: `KEY=sk-…` becomes
 * `KEY=[redacted]`). Every tool result passes through `redactSecrets` before it leaves the router.
 *
 * What is replaced, in every string of the result (objects and arrays are walked):
 * - private key blocks (`-----BEGIN … PRIVATE KEY-----` … `END`, or to the end when cut off);
 * - `Bearer <token>`, and the credentials of `Authorization: Basic …`;
 * - the value of an assignment whose name looks secret: `OPENAI_API_KEY=sk-…`, `DB_PASSWORD: x`,
 *   `"client_secret": "…"`, `password=…` (upper-case environment names containing KEY, TOKEN,
 *   SECRET, PASSWORD, PASSWD, PWD, CREDENTIAL or AUTH; any case for the usual explicit names);
 * - well-known token shapes wherever they appear: `sk-…`, Stripe `sk_live_…`, GitHub `ghp_…`,
 *   Slack `xox?-…`, Google `AIza…`, AWS access key ids `AKIA…`/`ASIA…`, JWTs `eyJ….eyJ….…`;
 * - the password of a URL (`postgres://user:[redacted]@host`);
 * - the whole value of an object property whose name is a secret's (`password`, `apiKey`,
 *   `client_secret`, `authorization`, `AWS_SECRET_ACCESS_KEY`, …) when it is a string.
 *
 * Values that look like nothing of the above are returned untouched (the same object when nothing
 * changed: no copy on the hot path). It is a safety net for accidents, not a guarantee: an agent
 * that needs secrets uses the vault.
 */

export const REDACTED = '[redacted]';

/** Cheap pre-check: a string without any of these fragments cannot match a rule below. */
const MAYBE_SECRET =
  /key|token|secret|pass|pwd|auth|bearer|credential|akia|asia|private|sk[-_]|rk_|gh[pousr]_|github_pat|xox|aiza|eyj|:\/\/[^\s/@]{0,256}:[^\s/@]{0,256}@/i;

const PRIVATE_KEY_BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const PRIVATE_KEY_END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;

const BEARER = /\b(Bearer)(\s+)[A-Za-z0-9\-._~+/]{8,}=*/gi;
const BASIC_AUTH = /\b(Authorization["']?\s*[:=]\s*["']?Basic)(\s+)[A-Za-z0-9+/]{6,}=*/gi;

/** `NAME=value` / `NAME: value` with an upper-case environment-style name that looks secret. */
const ENV_ASSIGNMENT =
  /\b((?:[A-Z][A-Z0-9_]{0,63})?(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PWD|CREDENTIALS?|AUTH)[A-Z0-9_]{0,63})(["']?[ \t]*[:=][ \t]*["']?)(?!\[redacted\])([^\s"'`,;&]+)/g;

/** The same with the usual explicit names, in any case (`password=…`, `"api_key": "…"`). */
const NAMED_ASSIGNMENT =
  /\b((?:[a-z0-9]{1,32}[_-]){0,6}(?:api[_-]?key|apikey|secret[_-]?key|client[_-]?secret|secret|access[_-]?token|refresh[_-]?token|auth[_-]?token|id[_-]?token|session[_-]?token|password|passwd|pwd|private[_-]?key|access[_-]?key))(["']?[ \t]*[:=][ \t]*["']?)(?!\[redacted\])([^\s"'`,;&]+)/gi;

const TOKEN_SHAPES: readonly RegExp[] = [
  /\bsk-(?:proj-|ant-|live-|test-)?[A-Za-z0-9_-]{16,}/g,
  /\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bAIza[0-9A-Za-z_-]{35}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}/g,
];

/** `scheme://user:password@host` → `scheme://user:[redacted]@host`. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]{0,30}:\/\/[^\s/:@]{0,256}:)([^\s/@]{1,256})(@)/gi;

/** Property names (lower-cased, without `_`/`-`) whose string values are secrets. */
const SECRET_PROPERTIES: ReadonlySet<string> = new Set([
  'password',
  'passwd',
  'pwd',
  'secret',
  'clientsecret',
  'apikey',
  'xapikey',
  'accesstoken',
  'refreshtoken',
  'authtoken',
  'idtoken',
  'sessiontoken',
  'privatekey',
  'secretkey',
  'secretaccesskey',
  'awssecretaccesskey',
  'authorization',
  'proxyauthorization',
]);
const ENV_SECRET_PROPERTY = /^(?:[A-Z][A-Z0-9_]*)?(KEY|TOKEN|SECRET|PASSWORD|PASSWD|PWD|CREDENTIALS?)$/;

/** Deeper values than this are left as they are (tool results are JSON of modest depth). */
const MAX_DEPTH = 64;

/**
 * Private key blocks, BEGIN to END, or to the end of the text when the END line is missing (cut-off
 * output). Scans with indexes rather than a lazy `[\s\S]*?` so that many BEGIN lines stay linear.
 */
function redactPrivateKeys(text: string): string {
  if (!text.includes('PRIVATE KEY')) return text;
  let out = '';
  let from = 0;
  PRIVATE_KEY_BEGIN.lastIndex = 0;
  for (;;) {
    PRIVATE_KEY_BEGIN.lastIndex = from;
    const begin = PRIVATE_KEY_BEGIN.exec(text);
    if (!begin) return out + text.slice(from);
    out += text.slice(from, begin.index) + '[redacted private key]';
    PRIVATE_KEY_END.lastIndex = begin.index + begin[0].length;
    const end = PRIVATE_KEY_END.exec(text);
    if (!end) return out;
    from = end.index + end[0].length;
  }
}

/** Redacts secret-looking parts of one string. Returns the same string when nothing matched. */
export function redactText(text: string): string {
  if (!MAYBE_SECRET.test(text)) return text;
  let out = redactPrivateKeys(text)
    .replace(BEARER, `$1$2${REDACTED}`)
    .replace(BASIC_AUTH, `$1$2${REDACTED}`)
    .replace(URL_PASSWORD, `$1${REDACTED}$3`);
  for (const shape of TOKEN_SHAPES) out = out.replace(shape, REDACTED);
  out = out.replace(ENV_ASSIGNMENT, `$1$2${REDACTED}`).replace(NAMED_ASSIGNMENT, `$1$2${REDACTED}`);
  return out;
}

function isSecretProperty(name: string): boolean {
  return SECRET_PROPERTIES.has(name.toLowerCase().replace(/[-_]/g, '')) || ENV_SECRET_PROPERTY.test(name);
}

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const next = redactValue(item, depth + 1);
      if (next !== item) {
        copy ??= value.slice();
        copy[i] = next;
      }
    }
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  const source = value as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    const item = source[key];
    const next =
      typeof item === 'string' && item !== '' && item !== REDACTED && isSecretProperty(key)
        ? REDACTED
        : redactValue(item, depth + 1);
    if (next !== item) {
      copy ??= { ...source };
      copy[key] = next;
    }
  }
  return copy ?? value;
}

/**
 * A tool result with its secret-looking values replaced by `[redacted]` (see the rules above).
 * The input is not modified; unchanged parts are shared.
 */
export function redactSecrets<T>(value: T): T {
  return redactValue(value, 0) as T;
}
