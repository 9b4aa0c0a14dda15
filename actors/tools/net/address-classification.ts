import { isIPv6 } from 'node:net';

/**
 * What an IP address or a host name is, for the SSRF guard of the network tools. Pure functions,
 * no I/O. Only `public` addresses may be connected to (loopback too, when the service allows it for
 * tests). See docs/tool-net.md for the table of refused ranges.
 */

/** Kinds of address. Everything but `public` is refused by the SSRF guard. */
export type AddressCategory =
  | 'public'
  | 'private'
  | 'loopback'
  | 'link_local'
  | 'metadata'
  | 'unique_local'
  | 'site_local'
  | 'cgnat'
  | 'multicast'
  | 'broadcast'
  | 'unspecified'
  | 'documentation'
  | 'reserved';

export interface AddressClass {
  category: AddressCategory;
  /** Readable reason, e.g. "private address", "loopback address (IPv4-mapped 127.0.0.1)". */
  label: string;
}

/** A host as written in a URL or given to the resolver. */
export type HostKind =
  { kind: 'ip'; address: string; family: 4 | 6 } | { kind: 'name'; name: string } | { kind: 'invalid' };

const LABELS: Record<AddressCategory, string> = {
  public: 'public address',
  private: 'private address',
  loopback: 'loopback address',
  link_local: 'link-local address',
  metadata: 'cloud metadata address',
  unique_local: 'unique-local address',
  site_local: 'site-local address',
  cgnat: 'shared address space (CGNAT)',
  multicast: 'multicast address',
  broadcast: 'broadcast address',
  unspecified: 'unspecified address',
  documentation: 'documentation address',
  reserved: 'reserved address',
};

// ---------------------------------------------------------------------------------------------
// IPv4

/** One IPv4 part in the forms the URL standard (and inet_aton) accept: decimal, 0-octal, 0x-hex. */
function parseIpv4Number(part: string): number | undefined {
  if (/^0[xX][0-9a-fA-F]*$/.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (/^0[0-7]+$/.test(part)) return parseInt(part.slice(1), 8);
  if (/^(0|[1-9][0-9]*)$/.test(part)) return Number(part);
  return undefined;
}

/** True when the last label of a host is numeric: the URL standard then requires an IPv4 address. */
function endsInNumber(parts: string[]): boolean {
  const last = parts[parts.length - 1] ?? '';
  return /^[0-9]+$/.test(last) || /^0[xX][0-9a-fA-F]*$/.test(last);
}

/**
 * Parses every IPv4 form a URL parser or `inet_aton` would accept (`127.0.0.1`, `2130706433`,
 * `0x7f.1`, `0177.0.0.1`, `127.1`) into a 32-bit number; `'invalid'` for a numeric-looking host
 * that is not a valid address (`1.2.3.4.5`, `08.1.1.1`); undefined for a name.
 */
export function parseIpv4(host: string): number | 'invalid' | undefined {
  const parts = host.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (!endsInNumber(parts)) return undefined;
  if (parts.length > 4) return 'invalid';
  const numbers = parts.map(parseIpv4Number);
  if (numbers.some((n) => n === undefined || !Number.isSafeInteger(n))) return 'invalid';
  const nums = numbers as number[];
  const last = nums[nums.length - 1] as number;
  if (nums.slice(0, -1).some((n) => n > 255) || last >= 256 ** (5 - nums.length)) return 'invalid';
  let value = last;
  nums.slice(0, -1).forEach((n, i) => (value += n * 256 ** (3 - i)));
  return value;
}

function ipv4ToString(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

type Ipv4Range = readonly [base: string, prefix: number, category: AddressCategory, note?: string];

// Most specific first: the first match wins.
const IPV4_RANGES: readonly Ipv4Range[] = [
  ['169.254.169.254', 32, 'metadata', 'AWS, GCP, Azure, OpenStack'],
  ['169.254.170.2', 32, 'metadata', 'AWS ECS task metadata'],
  ['100.100.100.200', 32, 'metadata', 'Alibaba Cloud'],
  ['192.0.0.192', 32, 'metadata', 'Oracle Cloud'],
  ['168.63.129.16', 32, 'metadata', 'Azure platform endpoint'],
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link_local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved', 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved', '6to4 relay anycast'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved', 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['255.255.255.255', 32, 'broadcast'],
  ['240.0.0.0', 4, 'reserved', 'future use'],
];

const IPV4_TABLE = IPV4_RANGES.map(([base, prefix, category, note]) => ({
  start: parseIpv4(base) as number,
  size: 2 ** (32 - prefix),
  category,
  label: note ? `${LABELS[category]} (${note})` : LABELS[category],
}));

function classifyIpv4Number(value: number): AddressClass {
  const hit = IPV4_TABLE.find(({ start, size }) => value >= start && value < start + size);
  return hit ? { category: hit.category, label: hit.label } : { category: 'public', label: LABELS.public };
}

// ---------------------------------------------------------------------------------------------
// IPv6

/** The 8 16-bit groups of a valid IPv6 address (no brackets, no zone). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /\d+\.\d+\.\d+\.\d+$/.exec(text)?.[0];
  if (dotted) {
    // `::ffff:1.2.3.4`: the dotted tail is the last two groups.
    const v4 = parseIpv4(dotted) as number;
    text = `${text.slice(0, -dotted.length)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const gap = text.indexOf('::');
  if (gap < 0) return parse(text);
  const left = parse(text.slice(0, gap));
  const right = parse(text.slice(gap + 2));
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** Canonical (RFC 5952) text of an IPv6 address. */
function canonicalIpv6(address: string): string {
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}

function startsWith(groups: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i < 8 && bits > 0; i += 1) {
    const take = Math.min(16, bits);
    const mask = (0xffff << (16 - take)) & 0xffff;
    if (((groups[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
    bits -= take;
  }
  return true;
}

type Ipv6Range = readonly [prefix: number[], bits: number, category: AddressCategory, note?: string];

const IPV6_RANGES: readonly Ipv6Range[] = [
  [[0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x0254], 128, 'metadata', 'AWS'],
  [[0, 0, 0, 0, 0, 0, 0, 0], 128, 'unspecified'],
  [[0, 0, 0, 0, 0, 0, 0, 1], 128, 'loopback'],
  [[0, 0, 0, 0, 0, 0], 96, 'reserved', 'IPv4-compatible, deprecated'],
  [[0], 8, 'reserved'],
  [[0x0064, 0xff9b, 0x0001], 48, 'reserved', 'local-use NAT64'],
  [[0x0100, 0, 0, 0], 64, 'reserved', 'discard-only'],
  [[0x2001, 0x0000], 32, 'reserved', 'Teredo'],
  [[0x2001, 0x0db8], 32, 'documentation'],
  [[0x2001, 0x0000], 23, 'reserved', 'IETF protocol assignments'],
  [[0x2002], 16, 'reserved', '6to4'],
  [[0x3fff, 0], 20, 'documentation'],
  [[0x5f00], 16, 'reserved', 'SRv6'],
  [[0xfc00], 7, 'unique_local'],
  [[0xfe80], 10, 'link_local'],
  [[0xfec0], 10, 'site_local'],
  [[0xff00], 8, 'multicast'],
];

/** The IPv4 address an IPv6 address carries, when it is IPv4-mapped, IPv4-translated or NAT64. */
function embeddedIpv4(groups: number[]): { value: number; how: string } | undefined {
  const v4 = (groups[6] ?? 0) * 65536 + (groups[7] ?? 0);
  if (startsWith(groups, [0, 0, 0, 0, 0, 0xffff], 96)) return { value: v4, how: 'IPv4-mapped' };
  if (startsWith(groups, [0, 0, 0, 0, 0xffff, 0], 96)) return { value: v4, how: 'IPv4-translated' };
  if (startsWith(groups, [0x64, 0xff9b, 0, 0, 0, 0], 96)) return { value: v4, how: 'NAT64' };
  return undefined;
}

function classifyIpv6(address: string): AddressClass {
  const groups = ipv6Groups(address);
  const embedded = embeddedIpv4(groups);
  if (embedded) {
    const inner = classifyIpv4Number(embedded.value);
    const note = `${embedded.how} ${ipv4ToString(embedded.value)}`;
    return { category: inner.category, label: `${LABELS[inner.category]} (${note})` };
  }
  for (const [prefix, bits, category, note] of IPV6_RANGES) {
    if (startsWith(groups, prefix, bits)) {
      return { category, label: note ? `${LABELS[category]} (${note})` : LABELS[category] };
    }
  }
  // Global unicast is 2000::/3; the rest of the space is not allocated.
  if (!startsWith(groups, [0x2000], 3))
    return { category: 'reserved', label: `${LABELS.reserved} (unallocated)` };
  return { category: 'public', label: LABELS.public };
}

// ---------------------------------------------------------------------------------------------
// Hosts

/**
 * Tells an IP literal from a name. Accepts `[v6]`, bare IPv6, and every IPv4 form (normalised to
 * dotted decimal); IPv6 zone ids (`fe80::1%eth0`) are invalid. Names are lower-cased, without a
 * trailing dot.
 */
export function parseHost(host: string): HostKind {
  // A zone id names a local interface: never valid in a URL host.
  const v6 = (t: string) => !t.includes('%') && isIPv6(t);
  let text = host.trim();
  if (text.startsWith('[') && text.endsWith(']')) {
    text = text.slice(1, -1);
    return v6(text) ? { kind: 'ip', address: canonicalIpv6(text), family: 6 } : { kind: 'invalid' };
  }
  if (text.includes(':')) {
    return v6(text) ? { kind: 'ip', address: canonicalIpv6(text), family: 6 } : { kind: 'invalid' };
  }
  const v4 = parseIpv4(text);
  if (v4 === 'invalid') return { kind: 'invalid' };
  if (v4 !== undefined) return { kind: 'ip', address: ipv4ToString(v4), family: 4 };
  const name = text.toLowerCase().replace(/\.$/, '');
  return name === '' ? { kind: 'invalid' } : { kind: 'name', name };
}

/** Classifies an IP address (any form `parseHost` accepts). Throws on something that is not one. */
export function classifyAddress(address: string): AddressClass {
  const host = parseHost(address);
  if (host.kind !== 'ip') throw new TypeError(`not an IP address: ${address}`);
  return host.family === 4
    ? classifyIpv4Number(parseIpv4(host.address) as number)
    : classifyIpv6(host.address);
}

/** Names of cloud metadata services (they resolve to link-local or internal addresses). */
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.internal',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.platformequinix.com',
]);

/**
 * Top-level domains that never resolve on the public internet: special-use names (RFC 6761, 6762,
 * 7686, 8375) and names reserved for private networks. A request to one can only reach something
 * inside the network the service runs in.
 */
const INTERNAL_TLDS = new Set([
  'local',
  'internal',
  'localdomain',
  'lan',
  'intranet',
  'corp',
  'home',
  'private',
  'arpa',
  'onion',
  'test',
  'invalid',
  'example',
]);

/** Why a host name may not be used, or undefined when it may (its addresses are checked apart). */
export interface NameClass {
  category: 'loopback' | 'metadata' | 'internal';
  label: string;
}

/** Classifies a normalised host name (lower case, ASCII, no trailing dot). */
export function classifyHostname(name: string): NameClass | undefined {
  if (name === 'localhost' || name.endsWith('.localhost')) {
    return { category: 'loopback', label: 'loopback host name' };
  }
  if (METADATA_NAMES.has(name)) return { category: 'metadata', label: 'cloud metadata host name' };
  const labels = name.split('.');
  if (labels.length === 1) {
    return { category: 'internal', label: 'single-label host name (resolved through local search domains)' };
  }
  const tld = labels[labels.length - 1] as string;
  if (INTERNAL_TLDS.has(tld) || name.endsWith('.home.arpa')) {
    return { category: 'internal', label: `internal or special-use domain (.${tld})` };
  }
  return undefined;
}
