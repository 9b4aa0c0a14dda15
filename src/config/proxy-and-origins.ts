import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * `TRUST_PROXY` as Express's `trust proxy` setting takes it: `false` (the default: `req.ip` is the
 * peer's address), a number of proxy hops in front of the service, or the addresses of the proxies
 * (IPs, CIDR ranges, or `loopback`, `linklocal`, `uniquelocal`).
 */
export type TrustProxy = false | number | readonly string[];

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const slash = entry.indexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return false;
  if (slash === -1) return true;
  const bits = entry.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * The `TRUST_PROXY` field. `true` (trust every hop) is refused: any client could then choose its
 * own address with `X-Forwarded-For` and walk around the per-address limits.
 */
export const trustProxyField = z
  .string()
  .optional()
  .transform((v, ctx): TrustProxy => {
    const text = (v ?? '').trim().toLowerCase();
    if (text === '' || text === 'false' || text === '0') return false;
    if (/^\d{1,2}$/.test(text)) return Number(text);
    const entries = text
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const bad = entries.filter((e) => !isAddressOrRange(e));
    if (entries.length === 0 || bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message:
          text === 'true'
            ? 'true would trust any X-Forwarded-For: give the number of proxies (e.g. 1) or their addresses'
            : `must be a number of proxy hops (e.g. 1) or a comma-separated list of proxy addresses and CIDR ranges (e.g. 10.0.0.0/8, loopback); not understood: ${bad.slice(0, 3).join(', ').slice(0, 200)}`,
      });
      return z.NEVER;
    }
    return Object.freeze(entries);
  });

/** An http(s) URL, parsed, or undefined. */
function httpUrl(url: string): URL | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The origin (`scheme://host[:port]`, lower case, default port dropped) of an http(s) URL, or undefined. */
export function originOf(url: string): string | undefined {
  return httpUrl(url)?.origin;
}

/**
 * The `ALLOWED_ORIGINS` field: comma-separated browser origins (`https://console.example.com`)
 * allowed to call `/mcp` besides the service's own (PUBLIC_BASE_URL's). Normalised to origins.
 */
export const allowedOriginsField = z
  .string()
  .optional()
  .transform((v, ctx): readonly string[] => {
    const entries = (v ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const origins: string[] = [];
    for (const entry of entries) {
      const url = httpUrl(entry);
      // Only an origin: a path, query or credentials would suggest a rule this is not.
      const bare = url && url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
      if (!url || !bare || entry.includes('*')) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a comma-separated list of origins like https://console.example.com; not an origin: ${entry.slice(0, 200)}`,
        });
        return z.NEVER;
      }
      origins.push(url.origin);
    }
    return Object.freeze(origins);
  });
