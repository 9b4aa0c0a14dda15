import { domainToASCII } from 'node:url';
import { parseHost } from './address-classification';

/**
 * The agent's outbound allowlist (`allowedDomains`). Syntax, the same the registration schema
 * accepts (schemas/http/agents.ts):
 *
 * - empty list: every host is allowed (the SSRF guard still applies);
 * - `api.example.com`: exactly that host, not its subdomains and not its parent;
 * - `*.example.com`: any subdomain of example.com at any depth (`a.example.com`, `a.b.example.com`),
 *   not `example.com` itself (list both to allow both);
 * - an IP address (`93.184.216.34`): that literal address in a URL. It never matches a name that
 *   resolves to it. Literal addresses must still be public (or loopback where the service allows it).
 *
 * Entries and hosts are compared normalised: lower case, IDN in ASCII (punycode), no trailing dot.
 * An entry that cannot be normalised matches nothing (fail closed).
 */

/** A normalised entry: `{ exact }` or `{ suffix }` (`.example.com` for `*.example.com`). */
type Entry = { exact: string } | { suffix: string };

function normaliseName(raw: string): string | undefined {
  const ascii = domainToASCII(raw.trim().toLowerCase().replace(/\.$/, ''));
  return ascii === '' ? undefined : ascii;
}

/** Normalises one entry; undefined when it cannot match anything. */
export function parseAllowEntry(raw: string): Entry | undefined {
  const value = raw.trim().toLowerCase();
  if (value.startsWith('*.')) {
    const base = normaliseName(value.slice(2));
    return base === undefined || parseHost(base).kind !== 'name' ? undefined : { suffix: `.${base}` };
  }
  const host = parseHost(value);
  if (host.kind === 'ip') return { exact: host.address };
  if (host.kind === 'invalid') return undefined;
  const name = normaliseName(host.name);
  return name === undefined ? undefined : { exact: name };
}

/**
 * True when `host` (a normalised name, or a canonical IP address as `parseHost` returns it) is
 * allowed by `allowedDomains`.
 */
export function isHostAllowed(host: string, allowedDomains: readonly string[]): boolean {
  if (allowedDomains.length === 0) return true;
  for (const raw of allowedDomains) {
    const entry = parseAllowEntry(raw);
    if (entry === undefined) continue;
    if ('exact' in entry ? host === entry.exact : host.endsWith(entry.suffix)) return true;
  }
  return false;
}
