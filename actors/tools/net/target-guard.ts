import { classifyAddress, classifyHostname, parseHost } from './address-classification';
import { isHostAllowed } from './allowlist';
import { dnsError, refused } from './net-errors';

/**
 * The policy check of one hop (the first request and every redirect), before anything is sent:
 * scheme, allowlist, literal addresses, special names, then the name is resolved here and every
 * address it resolves to must be public. The caller connects only to the addresses returned
 * (see pinned-dispatcher.ts), so a DNS answer that changes after the check is never used.
 */

/** One resolved address. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves a name to its addresses (family 0 = both). The default uses the system resolver
 * (`dns.lookup`, which honours /etc/hosts like a connection would); tests inject their own.
 */
export type Lookup = (
  hostname: string,
  options: { family: 0 | 4 | 6; signal: AbortSignal },
) => Promise<ResolvedAddress[]>;

export interface HopPolicy {
  allowedDomains: readonly string[];
  /** Loopback addresses and names are allowed (tests only), and plain http to them. */
  allowLoopback: boolean;
  /** Plain http is allowed to any host (the caller opted in and the service permits it). */
  allowHttp: boolean;
  lookup: Lookup;
  signal: AbortSignal;
  /** 0 for the first request, n for the n-th redirect. */
  hop: number;
}

/** A target that passed every check, with the only addresses it may be connected to. */
export interface VettedTarget {
  url: URL;
  /** Normalised host: a name (lower case, ASCII, no trailing dot) or a canonical IP address. */
  host: string;
  /** True when `host` is a name (TLS then sends it as SNI and checks the certificate against it). */
  isName: boolean;
  addresses: ResolvedAddress[];
}

/** Resolves `promise` unless `signal` fires first (dns.lookup itself cannot be cancelled). */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/** True when the address may be connected to under this policy. */
function addressAllowed(
  address: string,
  allowLoopback: boolean,
): { ok: boolean; label: string; loopback: boolean } {
  const cls = classifyAddress(address);
  const loopback = cls.category === 'loopback';
  return { ok: cls.category === 'public' || (loopback && allowLoopback), label: cls.label, loopback };
}

/** Checks one hop; throws PERMISSION_DENIED (policy) or UNAVAILABLE (name not resolved). */
export async function vetTarget(input: URL, policy: HopPolicy): Promise<VettedTarget> {
  const { hop } = policy;
  const url = new URL(input.href);
  // Credentials in a URL are never sent (the request is built from origin and path).
  url.username = '';
  url.password = '';
  const parsed = parseHost(url.hostname);
  const shown = parsed.kind === 'ip' ? parsed.address : parsed.kind === 'name' ? parsed.name : url.hostname;

  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw refused(shown, `scheme ${url.protocol} is not allowed (https only)`, 'scheme', hop);
  }
  const plainHttp = url.protocol === 'http:' && !policy.allowHttp;
  if (plainHttp && !policy.allowLoopback) {
    throw refused(shown, 'plain http is not allowed (https only; set allowHttp to opt in)', 'scheme', hop);
  }
  if (parsed.kind === 'invalid') throw refused(shown, 'invalid host', 'ssrf', hop);

  let target: VettedTarget;
  if (parsed.kind === 'ip') {
    const verdict = addressAllowed(parsed.address, policy.allowLoopback);
    if (!verdict.ok) throw refused(parsed.address, verdict.label, 'ssrf', hop);
    // A public literal is allowed only when the allowlist names it; loopback (tests) like a name.
    const listed = policy.allowedDomains.length > 0 && isHostAllowed(parsed.address, policy.allowedDomains);
    if (!verdict.loopback && !listed) {
      throw refused(parsed.address, 'IP address hosts are not allowed; use a host name', 'ip_literal', hop);
    }
    if (!isHostAllowed(parsed.address, policy.allowedDomains)) {
      throw refused(parsed.address, 'not in the agent’s allowed domains', 'allowlist', hop);
    }
    target = {
      url,
      host: parsed.address,
      isName: false,
      addresses: [{ address: parsed.address, family: parsed.family }],
    };
  } else {
    const name = parsed.name;
    if (!isHostAllowed(name, policy.allowedDomains)) {
      throw refused(name, 'not in the agent’s allowed domains', 'allowlist', hop);
    }
    const special = classifyHostname(name);
    if (special && !(special.category === 'loopback' && policy.allowLoopback)) {
      throw refused(name, special.label, 'ssrf', hop);
    }
    const addresses = await resolveName(name, 0, policy);
    for (const { address } of addresses) {
      const verdict = addressAllowed(address, policy.allowLoopback);
      if (!verdict.ok) throw refused(name, `it resolves to ${address}, a ${verdict.label}`, 'ssrf', hop);
    }
    target = { url, host: name, isName: true, addresses };
  }

  if (plainHttp && !target.addresses.every((a) => addressAllowed(a.address, true).loopback)) {
    throw refused(
      target.host,
      'plain http is not allowed (https only; set allowHttp to opt in)',
      'scheme',
      hop,
    );
  }
  return target;
}

/** Resolves a name through the policy's lookup; every answer is validated, duplicates removed. */
export async function resolveName(
  name: string,
  family: 0 | 4 | 6,
  policy: Pick<HopPolicy, 'lookup' | 'signal' | 'hop'>,
): Promise<ResolvedAddress[]> {
  const context = { hop: policy.hop, host: name };
  let answers: ResolvedAddress[];
  try {
    answers = await raceAbort(policy.lookup(name, { family, signal: policy.signal }), policy.signal);
  } catch (err) {
    if (policy.signal.aborted) throw err;
    throw dnsError(err, context);
  }
  const out: ResolvedAddress[] = [];
  const seen = new Set<string>();
  for (const answer of answers) {
    const host = parseHost(String(answer.address));
    // A resolver that answers with something other than an address is treated as no answer.
    if (host.kind !== 'ip' || seen.has(host.address)) continue;
    if (family !== 0 && host.family !== family) continue;
    seen.add(host.address);
    out.push({ address: host.address, family: host.family });
  }
  if (out.length === 0)
    throw dnsError(Object.assign(new Error('no addresses'), { code: 'ENODATA' }), context);
  return out;
}
