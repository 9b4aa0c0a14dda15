import { isAppError, type AppError } from '../../../../schemas/errors';
import { vetTarget, type HopPolicy, type Lookup } from '../../../../actors/tools/net/target-guard';

function lookupOf(table: Record<string, string[]>): Lookup & { calls: string[] } {
  const calls: string[] = [];
  const fn = async (hostname: string) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: (address.includes(':') ? 6 : 4) as 4 | 6 }));
  };
  return Object.assign(fn, { calls });
}

const DNS = {
  'api.example.com': ['93.184.216.34'],
  'v6.example.com': ['2606:4700:4700::1111', '93.184.216.34'],
  'internal.example.com': ['10.0.0.5'],
  'mixed.example.com': ['93.184.216.34', '169.254.169.254'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'loop.example.com': ['127.0.0.1'],
  localhost: ['127.0.0.1', '::1'],
};

function policy(overrides: Partial<HopPolicy> = {}): HopPolicy {
  return {
    allowedDomains: [],
    allowLoopback: false,
    allowHttp: false,
    lookup: lookupOf(DNS),
    signal: new AbortController().signal,
    hop: 0,
    ...overrides,
  };
}

async function refusal(url: string, overrides: Partial<HopPolicy> = {}): Promise<AppError> {
  try {
    await vetTarget(new URL(url), policy(overrides));
  } catch (err) {
    if (isAppError(err)) return err;
    throw err;
  }
  throw new Error(`expected ${url} to be refused`);
}

describe('vetTarget', () => {
  it('accepts a public https host and returns its vetted addresses', async () => {
    const target = await vetTarget(new URL('https://API.example.com./x?y=1'), policy());
    expect(target.host).toBe('api.example.com');
    expect(target.isName).toBe(true);
    expect(target.addresses).toEqual([{ address: '93.184.216.34', family: 4 }]);
    const both = await vetTarget(new URL('https://v6.example.com/'), policy());
    expect(both.addresses.map((a) => a.family)).toEqual([6, 4]);
  });

  it.each([
    ['http://10.0.0.5/', '10.0.0.5', 'private address'],
    ['https://10.0.0.5/', '10.0.0.5', 'private address'],
    ['https://127.0.0.1/', '127.0.0.1', 'loopback address'],
    ['https://2130706433/', '127.0.0.1', 'loopback address'],
    ['https://0x7f.1/', '127.0.0.1', 'loopback address'],
    ['https://0177.0.0.1/', '127.0.0.1', 'loopback address'],
    ['https://0.0.0.0/', '0.0.0.0', 'unspecified address'],
    ['https://0/', '0.0.0.0', 'unspecified address'],
    ['https://[::1]/', '::1', 'loopback address'],
    ['https://[::ffff:127.0.0.1]/', '::ffff:7f00:1', 'loopback address (IPv4-mapped 127.0.0.1)'],
    ['https://[::ffff:a9fe:a9fe]/', '::ffff:a9fe:a9fe', 'cloud metadata address'],
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254', 'cloud metadata address'],
    ['https://[fe80::1]/', 'fe80::1', 'link-local address'],
    ['https://[fd00::1]/', 'fd00::1', 'unique-local address'],
    ['https://100.64.0.1/', '100.64.0.1', 'shared address space (CGNAT)'],
    ['https://224.0.0.1/', '224.0.0.1', 'multicast address'],
    ['https://192.168.0.1/', '192.168.0.1', 'private address'],
    ['https://172.16.0.1/', '172.16.0.1', 'private address'],
  ])('refuses %s as ssrf', async (url, host, label) => {
    const err = await refusal(url, { allowHttp: true });
    expect(err.code).toBe('PERMISSION_DENIED');
    expect(err.details).toEqual({ reason: 'ssrf', hop: 0, host });
    expect(err.message).toContain(`Outbound request to ${host} refused: ${label}`);
  });

  it('refuses a public IP literal unless the allowlist names it', async () => {
    const err = await refusal('https://93.184.216.34/');
    expect(err.details).toMatchObject({ reason: 'ip_literal' });
    await expect(
      vetTarget(new URL('https://93.184.216.34/'), policy({ allowedDomains: ['93.184.216.34'] })),
    ).resolves.toMatchObject({
      host: '93.184.216.34',
      isName: false,
    });
  });

  it.each([
    ['https://localhost/', 'loopback host name'],
    ['https://api.localhost/', 'loopback host name'],
    ['https://metadata.google.internal/', 'cloud metadata host name'],
    ['https://metadata/', 'cloud metadata host name'],
    ['https://intranet/', 'single-label host name'],
    ['https://svc.cluster.local/', 'internal or special-use domain'],
  ])('refuses the name in %s without resolving it', async (url, label) => {
    const lookup = lookupOf(DNS);
    const err = await refusal(url, { lookup });
    expect(err.details).toMatchObject({ reason: 'ssrf' });
    expect(err.message).toContain(label);
    expect(lookup.calls).toEqual([]);
  });

  it.each([
    ['https://internal.example.com/', '10.0.0.5'],
    ['https://mixed.example.com/', '169.254.169.254'],
    ['https://mapped.example.com/', '::ffff:7f00:1'],
    ['https://loop.example.com/', '127.0.0.1'],
  ])('refuses %s because of what it resolves to', async (url, address) => {
    const err = await refusal(url);
    expect(err.details).toMatchObject({ reason: 'ssrf' });
    expect(err.message).toContain(`resolves to ${address}`);
  });

  it('applies the allowlist before resolving', async () => {
    const lookup = lookupOf(DNS);
    const err = await refusal('https://api.example.com/', { allowedDomains: ['*.example.org'], lookup });
    expect(err.details).toEqual({ reason: 'allowlist', hop: 0, host: 'api.example.com' });
    expect(lookup.calls).toEqual([]);
  });

  it('refuses plain http and other schemes, naming the hop', async () => {
    expect((await refusal('http://api.example.com/')).details).toMatchObject({ reason: 'scheme' });
    const ftp = await refusal('ftp://api.example.com/', { hop: 2 });
    expect(ftp.details).toEqual({ reason: 'scheme', hop: 2, host: 'api.example.com' });
    expect(ftp.message).toContain('(redirect 2)');
    await expect(
      vetTarget(new URL('http://api.example.com/'), policy({ allowHttp: true })),
    ).resolves.toBeDefined();
  });

  it('allows loopback (and plain http to it) only with allowLoopback', async () => {
    const on = { allowLoopback: true };
    await expect(vetTarget(new URL('http://127.0.0.1:8080/'), policy(on))).resolves.toMatchObject({
      host: '127.0.0.1',
    });
    await expect(vetTarget(new URL('http://[::1]:8080/'), policy(on))).resolves.toMatchObject({
      host: '::1',
    });
    await expect(vetTarget(new URL('http://localhost:8080/'), policy(on))).resolves.toMatchObject({
      host: 'localhost',
    });
    await expect(vetTarget(new URL('http://loop.example.com/'), policy(on))).resolves.toBeDefined();
    // Private ranges stay refused; plain http to a public host still needs allowHttp.
    expect((await refusal('http://10.0.0.5/', on)).details).toMatchObject({ reason: 'ssrf' });
    expect((await refusal('https://internal.example.com/', on)).details).toMatchObject({ reason: 'ssrf' });
    expect((await refusal('http://api.example.com/', on)).details).toMatchObject({ reason: 'scheme' });
    // The allowlist still applies to loopback.
    expect(
      (await refusal('http://127.0.0.1/', { ...on, allowedDomains: ['api.example.com'] })).details,
    ).toMatchObject({
      reason: 'allowlist',
    });
  });

  it('reports an unknown name as UNAVAILABLE (dns)', async () => {
    const err = await refusal('https://nope.example.com/');
    expect(err.code).toBe('UNAVAILABLE');
    expect(err.details).toMatchObject({ reason: 'dns', host: 'nope.example.com' });
    expect(err.retryable).toBe(false);
  });

  it('stops waiting for the resolver when the signal fires', async () => {
    const controller = new AbortController();
    const never: Lookup = () => new Promise(() => undefined);
    const pending = vetTarget(
      new URL('https://api.example.com/'),
      policy({ lookup: never, signal: controller.signal }),
    );
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });
});
