import {
  classifyAddress,
  classifyHostname,
  parseHost,
  parseIpv4,
  type AddressCategory,
} from '../../../../actors/tools/net/address-classification';

const category = (address: string): AddressCategory => classifyAddress(address).category;

describe('parseHost', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['127.0.1', '127.0.0.1'],
    ['0', '0.0.0.0'],
    ['0.0.0.0', '0.0.0.0'],
    ['0x0', '0.0.0.0'],
    ['10.0.0.5.', '10.0.0.5'],
    ['3232235521', '192.168.0.1'],
    ['0xA9.0xFE.0xA9.0xFE', '169.254.169.254'],
    ['2852039166', '169.254.169.254'],
    ['93.184.216.34', '93.184.216.34'],
  ])('reads the IPv4 form %s as %s', (host, address) => {
    expect(parseHost(host)).toEqual({ kind: 'ip', address, family: 4 });
  });

  it.each([
    ['[::1]', '::1'],
    ['::1', '::1'],
    ['[0:0:0:0:0:0:0:1]', '::1'],
    ['[::]', '::'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
    ['[::FFFF:7F00:1]', '::ffff:7f00:1'],
    ['[fe80::1]', 'fe80::1'],
    ['[2606:4700:4700::1111]', '2606:4700:4700::1111'],
  ])('reads the IPv6 form %s as %s', (host, address) => {
    expect(parseHost(host)).toEqual({ kind: 'ip', address, family: 6 });
  });

  it.each([
    '1.2.3.4.5',
    '08.1.1.1',
    '256.1.1.1',
    '1.2.3.256',
    '4294967296',
    '0x100000000',
    'foo.123',
    '[fe80::1%eth0]',
    '[not:an:ip]',
    '1::2::3',
    '',
  ])('treats %s as an invalid host', (host) => {
    expect(parseHost(host)).toEqual({ kind: 'invalid' });
  });

  it('normalises names', () => {
    expect(parseHost('API.Example.COM.')).toEqual({ kind: 'name', name: 'api.example.com' });
    expect(parseHost('1.2.3.example.com')).toEqual({ kind: 'name', name: '1.2.3.example.com' });
    expect(parseHost('0x7f.example')).toEqual({ kind: 'name', name: '0x7f.example' });
  });

  it('parses the largest and smallest IPv4 numbers', () => {
    expect(parseIpv4('4294967295')).toBe(4294967295);
    expect(parseIpv4('1.16777215')).toBe(16777216 + 16777215);
    expect(parseIpv4('1.16777216')).toBe('invalid');
    expect(parseIpv4('example.com')).toBeUndefined();
  });
});

describe('classifyAddress: IPv4', () => {
  it.each<[string, AddressCategory]>([
    ['10.0.0.5', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.1.1', 'link_local'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['192.0.0.192', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.1', 'documentation'],
    ['203.0.113.1', 'documentation'],
    // Decimal, hex and octal forms classify like their dotted form.
    ['2130706433', 'loopback'],
    ['0x0a000005', 'private'],
    ['0300.0250.0.1', 'private'],
  ])('%s is %s', (address, expected) => {
    expect(category(address)).toBe(expected);
  });

  it.each([
    '8.8.8.8',
    '93.184.216.34',
    '1.1.1.1',
    '172.15.255.255',
    '172.32.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '169.253.255.255',
    '11.0.0.1',
    '223.255.255.255',
    '198.20.0.0',
    '192.169.0.1',
  ])('%s is public', (address) => {
    expect(category(address)).toBe('public');
  });

  it('labels refusals readably', () => {
    expect(classifyAddress('10.0.0.5').label).toBe('private address');
    expect(classifyAddress('169.254.169.254').label).toMatch(/^cloud metadata address/);
  });
});

describe('classifyAddress: IPv6', () => {
  it.each<[string, AddressCategory]>([
    ['::1', 'loopback'],
    ['[0:0:0:0:0:0:0:1]', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link_local'],
    ['febf:ffff::1', 'link_local'],
    ['fc00::1', 'unique_local'],
    ['fd12:3456::1', 'unique_local'],
    ['fd00:ec2::254', 'metadata'],
    ['fec0::1', 'site_local'],
    ['ff02::1', 'multicast'],
    ['ff05::1:3', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001::1', 'reserved'],
    ['2001:2::1', 'reserved'],
    ['2002:7f00:1::1', 'reserved'],
    ['100::1', 'reserved'],
    ['64:ff9b:1::1', 'reserved'],
    ['::7f00:1', 'reserved'],
    ['::127.0.0.1', 'reserved'],
    ['5f00::1', 'reserved'],
    ['4000::1', 'reserved'],
    ['1::1', 'reserved'],
  ])('%s is %s', (address, expected) => {
    expect(category(address)).toBe(expected);
  });

  it.each<[string, AddressCategory]>([
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::808:808', 'public'],
  ])('embedded IPv4: %s is %s', (address, expected) => {
    expect(category(address)).toBe(expected);
  });

  it('names the embedded address in the label', () => {
    expect(classifyAddress('::ffff:127.0.0.1').label).toBe('loopback address (IPv4-mapped 127.0.0.1)');
  });

  it.each(['2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '2001:4860:4860::8888'])(
    '%s is public',
    (address) => {
      expect(category(address)).toBe('public');
    },
  );

  it('throws on something that is not an address', () => {
    expect(() => classifyAddress('example.com')).toThrow(TypeError);
  });
});

describe('classifyHostname', () => {
  it.each(['localhost', 'api.localhost', 'a.b.localhost'])('%s is a loopback name', (name) => {
    expect(classifyHostname(name)?.category).toBe('loopback');
  });

  it.each([
    'metadata.google.internal',
    'metadata.goog',
    'metadata',
    'instance-data',
    'instance-data.ec2.internal',
  ])('%s is a metadata name', (name) => {
    expect(classifyHostname(name)?.category).toBe('metadata');
  });

  it.each([
    'intranet',
    'db',
    'printer.local',
    'svc.cluster.local',
    'foo.internal',
    'router.home.arpa',
    '1.0.0.127.in-addr.arpa',
    'x.onion',
    'a.test',
    'host.localdomain',
    'x.example',
  ])('%s is internal', (name) => {
    expect(classifyHostname(name)?.category).toBe('internal');
  });

  it.each([
    'example.com',
    'api.example.com',
    'xn--bcher-kva.de',
    'localhost.example.com',
    'metadata.example.com',
  ])('%s is an ordinary name', (name) => {
    expect(classifyHostname(name)).toBeUndefined();
  });
});
