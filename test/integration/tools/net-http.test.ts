import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { buildConnector } from 'undici';
import {
  createHttpEgress,
  createHttpEgressFromConfig,
  type HttpEgressOptions,
} from '../../../actors/tools/net/http-egress';
import { loadConfig } from '../../../src/config/load-config';
import { createNetTools } from '../../../actors/tools/net/net-tools';
import type { BaseConnector } from '../../../actors/tools/net/pinned-dispatcher';
import type { Lookup } from '../../../actors/tools/net/target-guard';
import { isAppError, type AppError } from '../../../schemas/errors';
import { silentLogger } from '../../../src/logging/logger';

// Every request in this suite goes to the server below on 127.0.0.1 (or through an injected
// connector that connects there); refused targets are asserted never to be connected to.

let server: http.Server;
let port: number;
let base: string;
const seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders }> = [];

function handler(req: http.IncomingMessage, res: http.ServerResponse): void {
  seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
  const url = new URL(req.url ?? '/', 'http://x');
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const path = url.pathname;
    if (path === '/echo') {
      res.setHeader('content-type', 'application/json');
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.end(
        JSON.stringify({
          method: req.method,
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
          path: req.url,
        }),
      );
    } else if (path === '/big') {
      res.setHeader('content-type', 'text/plain');
      res.end('x'.repeat(2 * 1024 * 1024));
    } else if (path === '/slow-headers') {
      setTimeout(() => res.end('late'), 5000).unref();
    } else if (path === '/slow-body') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('start');
      setTimeout(() => res.end('late'), 5000).unref();
    } else if (path.startsWith('/chain/')) {
      const n = Number(path.slice('/chain/'.length));
      res.writeHead(302, { location: n > 0 ? `/chain/${n - 1}` : '/echo' });
      res.end();
    } else if (path === '/to') {
      res.writeHead(Number(url.searchParams.get('status') ?? 302), {
        location: url.searchParams.get('location') ?? '/',
      });
      res.end('redirect body');
    } else if (path === '/status') {
      res.writeHead(Number(url.searchParams.get('code')), { 'content-type': 'text/plain' });
      res.end('status page');
    } else if (path === '/gzip') {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      res.end(gzipSync(Buffer.from('hello compressed world')));
    } else if (path === '/bad-gzip') {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      res.end('this is not gzip');
    } else if (path === '/binary') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(Buffer.from([0, 1, 2, 255]));
    } else {
      res.writeHead(404);
      res.end();
    }
  });
}

beforeAll(async () => {
  server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen.length = 0;
});

/** A connector that records each connection, then connects with undici's own. */
function spyConnector(
  redirectTo?: string,
  build: buildConnector.BuildOptions = {},
): BaseConnector & { calls: string[] } {
  const real = buildConnector({ timeout: 2000, ...build });
  const calls: string[] = [];
  const fn: BaseConnector = (options, callback) => {
    calls.push(
      options.servername
        ? `${options.hostname}:${options.port} sni=${options.servername}`
        : `${options.hostname}:${options.port}`,
    );
    // Stands in for a public server: the pinned address is recorded, the test server answers.
    real(redirectTo ? { ...options, hostname: redirectTo } : options, callback);
  };
  return Object.assign(fn, { calls });
}

/** A resolver that answers from a table (each name: one answer per call, the last one repeated). */
function tableLookup(table: Record<string, string[]>): Lookup & { calls: string[] } {
  const calls: string[] = [];
  const fn: Lookup = async (hostname) => {
    const n = calls.filter((c) => c === hostname).length;
    calls.push(hostname);
    const answers = table[hostname];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    const address = answers[Math.min(n, answers.length - 1)] as string;
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };
  return Object.assign(fn, { calls });
}

function egress(overrides: Partial<HttpEgressOptions> = {}) {
  const connector = spyConnector();
  const service = createHttpEgress({
    allowLoopback: true,
    logger: silentLogger,
    baseConnector: connector,
    ...overrides,
  });
  return { service, connector };
}

const ctx = { allowedDomains: [] as string[] };

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    if (isAppError(err)) return err;
    throw err;
  }
  throw new Error('expected a failure');
}

describe('net_http_* against a local server (allowLoopback)', () => {
  it('GET returns status, bounded headers and a text body; drops host and hop-by-hop headers', async () => {
    const { service } = egress();
    const result = await service.request(
      'GET',
      {
        url: `${base}/echo?q=1`,
        headers: { 'X-Custom': 'yes', Host: 'evil.example', Connection: 'upgrade', TE: 'trailers' },
      },
      ctx,
    );
    expect(result).toMatchObject({
      status: 200,
      statusText: 'OK',
      bodyEncoding: 'utf8',
      truncated: false,
      redirects: 0,
    });
    expect(result.url).toBe(`${base}/echo?q=1`);
    expect(result.headers['set-cookie']).toBe('a=1\nb=2');
    const echoed = JSON.parse(result.body) as {
      method: string;
      headers: Record<string, string>;
      path: string;
    };
    expect(echoed.method).toBe('GET');
    expect(echoed.path).toBe('/echo?q=1');
    expect(echoed.headers['x-custom']).toBe('yes');
    expect(echoed.headers.host).toBe(`127.0.0.1:${port}`);
    expect(echoed.headers.te).toBeUndefined();
    expect(echoed.headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(echoed.headers.connection).not.toBe('upgrade');
  });

  it('POST sends a JSON body with its content type; PUT a string; DELETE', async () => {
    const tools = createNetTools(egress().service);
    const post = (await tools.net_http_post.call({ url: `${base}/echo`, body: { a: [1, 2] } }, ctx)) as {
      body: string;
    };
    expect(JSON.parse(post.body)).toMatchObject({
      method: 'POST',
      body: '{"a":[1,2]}',
      headers: { 'content-type': 'application/json' },
    });
    const put = (await tools.net_http_put.call(
      { url: `${base}/echo`, body: 'plain', headers: { 'content-type': 'text/csv' } },
      ctx,
    )) as {
      body: string;
    };
    expect(JSON.parse(put.body)).toMatchObject({
      method: 'PUT',
      body: 'plain',
      headers: { 'content-type': 'text/csv' },
    });
    const del = (await tools.net_http_delete.call({ url: `${base}/echo` }, ctx)) as { body: string };
    expect(JSON.parse(del.body)).toMatchObject({ method: 'DELETE' });
  });

  it('returns upstream error statuses as results, decodes gzip, and base64-encodes binary bodies', async () => {
    const { service } = egress();
    await expect(service.request('GET', { url: `${base}/status?code=503` }, ctx)).resolves.toMatchObject({
      status: 503,
      body: 'status page',
    });
    const gz = await service.request('GET', { url: `${base}/gzip` }, ctx);
    expect(gz).toMatchObject({ body: 'hello compressed world', bodyEncoding: 'utf8' });
    expect(gz.headers['content-encoding']).toBeUndefined();
    await expect(service.request('GET', { url: `${base}/binary` }, ctx)).resolves.toMatchObject({
      body: Buffer.from([0, 1, 2, 255]).toString('base64'),
      bodyEncoding: 'base64',
      bytes: 4,
    });
  });

  it('fails clearly on a body that does not match its content coding', async () => {
    const err = await failure(egress().service.request('GET', { url: `${base}/bad-gzip` }, ctx));
    expect(err).toMatchObject({
      code: 'UNAVAILABLE',
      retryable: false,
      details: { reason: 'decode', hop: 0 },
    });
  });

  it('caps the response body and reports truncated', async () => {
    const { service } = egress({ maxResponseBytes: 64 * 1024 });
    const capped = await service.request('GET', { url: `${base}/big`, maxBytes: 1000 }, ctx);
    expect(capped).toMatchObject({ truncated: true, bytes: 1000 });
    expect(capped.body).toHaveLength(1000);
    // maxBytes above the service cap is lowered to it.
    await expect(
      service.request('GET', { url: `${base}/big`, maxBytes: 5_000_000 }, ctx),
    ).resolves.toMatchObject({
      truncated: true,
      bytes: 64 * 1024,
    });
  });

  it('times out waiting for headers and while reading the body', async () => {
    const { service } = egress();
    const started = Date.now();
    const err = await failure(service.request('GET', { url: `${base}/slow-headers`, timeout: 200 }, ctx));
    expect(err.code).toBe('DEADLINE_EXCEEDED');
    expect(err.message).toContain('timed out after 200 ms');
    const body = await failure(service.request('GET', { url: `${base}/slow-body`, timeout: 300 }, ctx));
    expect(body.code).toBe('DEADLINE_EXCEEDED');
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('ends promptly on abort (caller signal or abortAll)', async () => {
    const { service } = egress();
    const controller = new AbortController();
    const started = Date.now();
    const pending = failure(
      service.request('GET', { url: `${base}/slow-headers` }, { ...ctx, signal: controller.signal }),
    );
    setTimeout(() => controller.abort('panic'), 100);
    const err = await pending;
    expect(err).toMatchObject({ code: 'UNAVAILABLE', details: { reason: 'cancelled' } });
    expect(err.message).toContain('cancelled (panic)');
    expect(Date.now() - started).toBeLessThan(1500);

    const all = failure(service.request('GET', { url: `${base}/slow-body` }, ctx));
    await new Promise((r) => setTimeout(r, 100));
    expect(service.stats().inFlight).toBe(1);
    expect(service.abortAll('panic button')).toBe(1);
    await expect(all).resolves.toMatchObject({ code: 'UNAVAILABLE', details: { reason: 'cancelled' } });
    expect(service.stats().inFlight).toBe(0);

    const already = new AbortController();
    already.abort();
    await expect(
      failure(service.request('GET', { url: `${base}/echo` }, { ...ctx, signal: already.signal })),
    ).resolves.toMatchObject({
      details: { reason: 'cancelled' },
    });
  });

  it('follows a redirect chain up to 5 and refuses the 6th', async () => {
    const { service } = egress();
    const ok = await service.request('GET', { url: `${base}/chain/4` }, ctx);
    expect(ok).toMatchObject({ status: 200, redirects: 5, url: `${base}/echo` });
    const err = await failure(service.request('GET', { url: `${base}/chain/5` }, ctx));
    expect(err).toMatchObject({ code: 'UNAVAILABLE', details: { reason: 'too_many_redirects', hop: 5 } });
    const manual = await service.request('GET', { url: `${base}/chain/1`, followRedirects: false }, ctx);
    expect(manual).toMatchObject({ status: 302, redirects: 0, body: '', headers: { location: '/chain/0' } });
  });

  it('turns POST into GET on 303 and drops credentials on a cross-origin redirect', async () => {
    const { service } = egress();
    const other = `http://localhost:${port}/echo`;
    const result = await service.request(
      'POST',
      {
        url: `${base}/to?status=303&location=${encodeURIComponent(other)}`,
        body: { a: 1 },
        headers: { authorization: 'Bearer secret', 'x-keep': 'kept' },
      },
      ctx,
    );
    const echoed = JSON.parse(result.body) as { method: string; headers: Record<string, string> };
    expect(echoed.method).toBe('GET');
    expect(echoed.headers.authorization).toBeUndefined();
    expect(echoed.headers['content-type']).toBeUndefined();
    expect(echoed.headers['x-keep']).toBe('kept');
    expect(result).toMatchObject({ redirects: 1, url: other });
  });

  it.each([
    ['http://10.0.0.1/', '10.0.0.1', 'private address'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254', 'cloud metadata address'],
    ['http://[::ffff:169.254.169.254]/', '::ffff:a9fe:a9fe', 'cloud metadata address'],
    [
      'http://2130706433.example.com.internal/',
      '2130706433.example.com.internal',
      'internal or special-use domain',
    ],
    ['http://metadata.google.internal/', 'metadata.google.internal', 'cloud metadata host name'],
    ['https://192.168.1.1/', '192.168.1.1', 'private address'],
  ])('refuses a redirect to %s without connecting or resolving', async (location, host, label) => {
    const lookup = tableLookup({});
    const { service, connector } = egress({ lookup });
    const err = await failure(
      service.request(
        'GET',
        { url: `${base}/to?location=${encodeURIComponent(location)}`, allowHttp: true },
        ctx,
      ),
    );
    expect(err.code).toBe('PERMISSION_DENIED');
    expect(err.details).toEqual({ reason: 'ssrf', hop: 1, host });
    expect(err.message.startsWith(`Outbound request to ${host} refused: ${label}`)).toBe(true);
    expect(err.message.endsWith('(redirect 1)')).toBe(true);
    expect(connector.calls).toEqual([`127.0.0.1:${port}`]);
    expect(lookup.calls).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  it('refuses a redirect to a name that resolves to a private address, before connecting', async () => {
    const lookup = tableLookup({ 'internal.example.com': ['10.1.2.3'] });
    const { service, connector } = egress({ lookup });
    const err = await failure(
      service.request('GET', { url: `${base}/to?location=http://internal.example.com/` }, ctx),
    );
    expect(err).toMatchObject({ code: 'PERMISSION_DENIED', details: { reason: 'ssrf', hop: 1 } });
    expect(err.message).toContain('resolves to 10.1.2.3');
    expect(connector.calls).toHaveLength(1);
  });

  it('refuses a redirect to plain http of a public host unless allowHttp', async () => {
    const lookup = tableLookup({ 'api.example.com': ['93.184.216.34'] });
    const { service, connector } = egress({ lookup });
    const err = await failure(
      service.request('GET', { url: `${base}/to?location=http://api.example.com/` }, ctx),
    );
    expect(err).toMatchObject({ code: 'PERMISSION_DENIED', details: { reason: 'scheme', hop: 1 } });
    expect(connector.calls).toHaveLength(1);
  });

  it('refuses plain http even with allowHttp when the service does not permit it', async () => {
    const lookup = tableLookup({ 'api.example.com': ['93.184.216.34'] });
    const { service, connector } = egress({ allowLoopback: false, permitPlainHttp: false, lookup });
    const err = await failure(
      service.request('GET', { url: 'http://api.example.com/', allowHttp: true }, ctx),
    );
    expect(err).toMatchObject({ code: 'PERMISSION_DENIED', details: { reason: 'scheme', hop: 0 } });
    expect(connector.calls).toEqual([]);
  });
});

describe('policy without allowLoopback', () => {
  it('refuses 127.0.0.1, [::1], localhost and decimal forms, and nothing reaches the server', async () => {
    const { service, connector } = egress({ allowLoopback: false });
    for (const url of [
      `http://127.0.0.1:${port}/echo`,
      `https://127.0.0.1:${port}/echo`,
      `http://localhost:${port}/echo`,
      `https://localhost:${port}/echo`,
      `https://[::1]:${port}/echo`,
      `https://2130706433:${port}/echo`,
      `https://[::ffff:127.0.0.1]:${port}/echo`,
    ]) {
      const err = await failure(service.request('GET', { url, allowHttp: true }, ctx));
      expect(err.code).toBe('PERMISSION_DENIED');
      expect(err.details).toMatchObject({ reason: 'ssrf', hop: 0 });
    }
    expect(connector.calls).toEqual([]);
    expect(seen).toHaveLength(0);
  });

  it('follows ALLOW_LOOPBACK_HTTP (default false)', async () => {
    const off = createHttpEgressFromConfig(loadConfig({}), silentLogger);
    await expect(failure(off.request('GET', { url: `${base}/echo` }, ctx))).resolves.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    const on = createHttpEgressFromConfig(loadConfig({ ALLOW_LOOPBACK_HTTP: 'true' }), silentLogger);
    await expect(on.request('GET', { url: `${base}/echo` }, ctx)).resolves.toMatchObject({ status: 200 });
  });

  it('refuses a name that resolves to loopback (no connection attempted)', async () => {
    const lookup = tableLookup({ 'rebind.example.com': ['127.0.0.1'] });
    const { service, connector } = egress({ allowLoopback: false, lookup });
    const err = await failure(
      service.request('GET', { url: `http://rebind.example.com:${port}/echo`, allowHttp: true }, ctx),
    );
    expect(err.message).toBe(
      'Outbound request to rebind.example.com refused: it resolves to 127.0.0.1, a loopback address',
    );
    expect(connector.calls).toEqual([]);
    expect(seen).toHaveLength(0);
  });

  it('refuses a host outside the allowlist before resolving it', async () => {
    const lookup = tableLookup({ 'api.example.com': ['93.184.216.34'] });
    const { service, connector } = egress({ allowLoopback: false, lookup });
    const err = await failure(
      service.request('GET', { url: 'https://api.example.com/' }, { allowedDomains: ['*.example.org'] }),
    );
    expect(err).toMatchObject({
      code: 'PERMISSION_DENIED',
      details: { reason: 'allowlist', hop: 0, host: 'api.example.com' },
    });
    expect(lookup.calls).toEqual([]);
    expect(connector.calls).toEqual([]);
  });

  it('connects to the vetted address even when the name later resolves elsewhere (DNS rebinding)', async () => {
    // First answer public (vetted), every later answer loopback. The connector records the pinned
    // address and, standing in for that public server, connects to the test server instead.
    const lookup = tableLookup({ 'public.example.com': ['93.184.216.34', '127.0.0.1'] });
    const connector = spyConnector('127.0.0.1');
    const service = createHttpEgress({
      allowLoopback: false,
      lookup,
      logger: silentLogger,
      baseConnector: connector,
    });
    const result = await service.request(
      'GET',
      { url: `http://public.example.com:${port}/echo`, allowHttp: true },
      ctx,
    );
    expect(result.status).toBe(200);
    expect(lookup.calls).toEqual(['public.example.com']);
    expect(connector.calls).toEqual([`93.184.216.34:${port}`]);
    expect(JSON.parse(result.body).headers.host).toBe(`public.example.com:${port}`);
  });

  it('reports a failed lookup and a refused connection as UNAVAILABLE', async () => {
    const lookup = tableLookup({ 'closed.example.com': ['127.0.0.1'] });
    const dnsFail = egress({ allowLoopback: false, lookup }).service;
    const err = await failure(dnsFail.request('GET', { url: 'https://missing.example.com/' }, ctx));
    expect(err).toMatchObject({
      code: 'UNAVAILABLE',
      retryable: false,
      details: { reason: 'dns', host: 'missing.example.com' },
    });

    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await failure(
      egress().service.request('GET', { url: `http://127.0.0.1:${closedPort}/` }, ctx),
    );
    expect(refused).toMatchObject({ code: 'UNAVAILABLE', details: { reason: 'connect', hop: 0 } });
  });

  it('answers VALIDATION_ERROR for bad input', async () => {
    const { service } = egress();
    const err = await failure(service.request('GET', { url: 'file:///etc/passwd' }, ctx));
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(
      (await failure(service.request('POST', { url: `${base}/echo`, body: 1, bodyEncoding: 'base64' }, ctx)))
        .code,
    ).toBe('VALIDATION_ERROR');
  });
});

describe('net_dns_resolve', () => {
  const lookup: Lookup = async (hostname, { family }) => {
    const table: Record<string, Array<{ address: string; family: 4 | 6 }>> = {
      'mixed.example.com': [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.8', family: 4 },
        { address: '2606:4700::1', family: 6 },
        { address: 'fd00::1', family: 6 },
      ],
    };
    const answers = table[hostname];
    if (!answers) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    return answers.filter((a) => family === 0 || a.family === family);
  };

  it('reports public addresses and withholds the others', async () => {
    const { service } = egress({ allowLoopback: false, lookup });
    await expect(service.resolve({ hostname: 'Mixed.Example.com.' }, ctx)).resolves.toEqual({
      hostname: 'mixed.example.com',
      addresses: [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:4700::1', family: 6 },
      ],
      withheld: 2,
    });
    await expect(
      service.resolve({ hostname: 'mixed.example.com', type: 'AAAA' }, ctx),
    ).resolves.toMatchObject({
      addresses: [{ address: '2606:4700::1', family: 6 }],
      withheld: 1,
    });
  });

  it('applies the allowlist and the name rules, refuses IP addresses', async () => {
    const { service } = egress({ allowLoopback: false, lookup });
    await expect(
      failure(service.resolve({ hostname: 'mixed.example.com' }, { allowedDomains: ['api.example.com'] })),
    ).resolves.toMatchObject({
      code: 'PERMISSION_DENIED',
      details: { reason: 'allowlist' },
    });
    await expect(
      failure(service.resolve({ hostname: 'metadata.google.internal' }, ctx)),
    ).resolves.toMatchObject({
      details: { reason: 'ssrf' },
    });
    await expect(failure(service.resolve({ hostname: 'localhost' }, ctx))).resolves.toMatchObject({
      details: { reason: 'ssrf' },
    });
    await expect(failure(service.resolve({ hostname: '2130706433' }, ctx))).resolves.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    await expect(failure(service.resolve({ hostname: 'nope.example.com' }, ctx))).resolves.toMatchObject({
      code: 'UNAVAILABLE',
      details: { reason: 'dns' },
    });
  });

  it('resolves localhost through the system resolver when loopback is allowed', async () => {
    const { service } = egress({ allowLoopback: true });
    const result = await service.resolve({ hostname: 'localhost', type: 'A' }, ctx);
    expect(result.addresses).toContainEqual({ address: '127.0.0.1', family: 4 });
  });
});

describe('https pinned to a vetted address', () => {
  // A self-signed certificate for secure.example.com (test fixture, valid until 2125).
  const fixtures = path.join(__dirname, 'fixtures');
  const cert = readFileSync(path.join(fixtures, 'net-tls-cert.pem'));
  const key = readFileSync(path.join(fixtures, 'net-tls-key.pem'));
  let tlsServer: https.Server;
  let tlsPort: number;
  let sni: string | false | null | undefined;

  beforeAll(async () => {
    tlsServer = https.createServer({ cert, key }, (req, res) => {
      sni = (req.socket as import('node:tls').TLSSocket).servername;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ host: req.headers.host }));
    });
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
    tlsPort = (tlsServer.address() as AddressInfo).port;
  });

  afterAll(async () => {
    tlsServer.closeAllConnections();
    await new Promise((resolve) => tlsServer.close(resolve));
  });

  it('sends the name as SNI and Host, and verifies the certificate against it', async () => {
    const lookup = tableLookup({ 'secure.example.com': ['127.0.0.1'] });
    const connector = spyConnector(undefined, { ca: cert });
    const service = createHttpEgress({
      allowLoopback: true,
      lookup,
      logger: silentLogger,
      baseConnector: connector,
    });
    const result = await service.request('GET', { url: `https://secure.example.com:${tlsPort}/` }, ctx);
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body)).toEqual({ host: `secure.example.com:${tlsPort}` });
    expect(sni).toBe('secure.example.com');
    expect(connector.calls).toEqual([`127.0.0.1:${tlsPort} sni=secure.example.com`]);
  });

  it('fails (tls) when the certificate does not name the host', async () => {
    const lookup = tableLookup({ 'other.example.com': ['127.0.0.1'] });
    const service = createHttpEgress({
      allowLoopback: true,
      lookup,
      logger: silentLogger,
      baseConnector: spyConnector(undefined, { ca: cert }),
    });
    const err = await failure(service.request('GET', { url: `https://other.example.com:${tlsPort}/` }, ctx));
    expect(err).toMatchObject({
      code: 'UNAVAILABLE',
      retryable: false,
      details: { reason: 'tls', host: 'other.example.com' },
    });
  });
});
