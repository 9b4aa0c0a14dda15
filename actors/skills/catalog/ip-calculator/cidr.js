/**
 * IPv4 subnet arithmetic: network, broadcast, netmask, wildcard, first and last host, host count
 * and class of a CIDR block; and whether given addresses fall inside it.
 */
function run(params) {
  const toInt = (ip) => {
    const parts = ip.split('.');
    if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255))
      throw new Error('Not an IPv4 address: ' + ip);
    return parts.reduce((n, p) => n * 256 + Number(p), 0);
  };
  const toIp = (n) => [24, 16, 8, 0].map((s) => Math.floor(n / Math.pow(2, s)) % 256).join('.');
  const m = /^([\d.]+)\/(\d{1,2})$/.exec(params.cidr.trim());
  if (!m || Number(m[2]) > 32) throw new Error('Expected a.b.c.d/prefix with a prefix of 0 to 32');
  const prefix = Number(m[2]);
  const size = Math.pow(2, 32 - prefix);
  const address = toInt(m[1]);
  const network = Math.floor(address / size) * size;
  const broadcast = network + size - 1;
  const mask = 0x100000000 - size;
  const privateRanges = [
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
  ];
  const inRange = (n, base, p) =>
    Math.floor(n / Math.pow(2, 32 - p)) === Math.floor(toInt(base) / Math.pow(2, 32 - p));
  const first = Number(m[1].split('.')[0]);
  const out = {
    cidr: toIp(network) + '/' + prefix,
    network: toIp(network),
    broadcast: toIp(broadcast),
    netmask: toIp(mask),
    wildcard: toIp(size - 1),
    firstHost: prefix >= 31 ? toIp(network) : toIp(network + 1),
    lastHost: prefix >= 31 ? toIp(broadcast) : toIp(broadcast - 1),
    hosts: prefix === 32 ? 1 : prefix === 31 ? 2 : size - 2,
    addressWasNetwork: address === network,
    private: privateRanges.some((r) => inRange(network, r[0], r[1]) && prefix >= r[1]),
    class: first < 128 ? 'A' : first < 192 ? 'B' : first < 224 ? 'C' : first < 240 ? 'D' : 'E',
  };
  if (params.contains) {
    out.contains = params.contains.map((ip) => {
      const n = toInt(ip);
      return { ip, inside: n >= network && n <= broadcast };
    });
  }
  return out;
}
