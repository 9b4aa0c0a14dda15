import {
  boundResponseHeaders,
  headersForRedirect,
  sanitizeRequestHeaders,
} from '../../../../actors/tools/net/headers';
import { NET_HTTP_LIMITS, NetHttpGetInputSchema } from '../../../../schemas/tools/net-http';

describe('sanitizeRequestHeaders', () => {
  it('drops hop-by-hop, host, length, expect and accept-encoding headers', () => {
    const out = sanitizeRequestHeaders({
      Connection: 'keep-alive',
      'Keep-Alive': 'timeout=5',
      'Proxy-Connection': 'x',
      'Transfer-Encoding': 'chunked',
      TE: 'trailers',
      Trailer: 'x',
      Upgrade: 'websocket',
      'Proxy-Authorization': 'Basic x',
      Host: 'internal.example',
      'Content-Length': '5',
      Expect: '100-continue',
      'Accept-Encoding': 'gzip',
      Accept: 'application/json',
      Authorization: 'Bearer t',
    });
    expect(out).toEqual({ accept: 'application/json', authorization: 'Bearer t' });
  });

  it('lower-cases names and joins case variants', () => {
    expect(sanitizeRequestHeaders({ 'X-A': '1', 'x-a': '2' })).toEqual({ 'x-a': '1, 2' });
    expect(sanitizeRequestHeaders(undefined)).toEqual({});
  });
});

describe('request header schema', () => {
  const parse = (headers: Record<string, string>) =>
    NetHttpGetInputSchema.safeParse({ url: 'https://example.com', headers });

  it('refuses CR/LF injection, bad names and oversized headers', () => {
    expect(parse({ 'x-a': 'ok\r\nHost: evil' }).success).toBe(false);
    expect(parse({ 'x-a': 'a\u0000b' }).success).toBe(false);
    expect(parse({ 'bad name': 'x' }).success).toBe(false);
    expect(parse({ 'x-a': 'x'.repeat(NET_HTTP_LIMITS.maxHeaderValueBytes + 1) }).success).toBe(false);
    const many = Object.fromEntries(
      Array.from({ length: NET_HTTP_LIMITS.maxRequestHeaders + 1 }, (_, i) => [`x-${i}`, 'v']),
    );
    expect(parse(many).success).toBe(false);
    const big = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`x-${i}`, 'v'.repeat(8000)]));
    expect(parse(big).success).toBe(false);
    expect(parse({ 'x-a': 'fine value\twith tab' }).success).toBe(true);
  });
});

describe('headersForRedirect', () => {
  const headers = {
    authorization: 'Bearer t',
    cookie: 'a=b',
    'x-api-key': 'k',
    'x-auth-token': 't',
    accept: 'text/html',
    'content-type': 'application/json',
  };

  it('keeps everything on the same origin', () => {
    expect(headersForRedirect(headers, { crossOrigin: false, bodyDropped: false })).toEqual(headers);
  });

  it('drops credentials across origins', () => {
    expect(headersForRedirect(headers, { crossOrigin: true, bodyDropped: false })).toEqual({
      accept: 'text/html',
      'content-type': 'application/json',
    });
  });

  it('drops body headers with the body', () => {
    expect(headersForRedirect(headers, { crossOrigin: false, bodyDropped: true })).not.toHaveProperty(
      'content-type',
    );
  });
});

describe('boundResponseHeaders', () => {
  it('joins repeated values, set-cookie with newlines', () => {
    const { headers, truncated } = boundResponseHeaders({
      'content-type': 'text/plain',
      'set-cookie': ['a=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT', 'b=2'],
      vary: ['accept', 'origin'],
      skipped: undefined,
    });
    expect(headers).toEqual({
      'content-type': 'text/plain',
      'set-cookie': 'a=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT\nb=2',
      vary: 'accept, origin',
    });
    expect(truncated).toBe(false);
  });

  it('bounds count, value size and total size', () => {
    const many = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`x-${i}`, 'v']));
    const counted = boundResponseHeaders(many);
    expect(Object.keys(counted.headers)).toHaveLength(NET_HTTP_LIMITS.maxResponseHeaders);
    expect(counted.truncated).toBe(true);

    const long = boundResponseHeaders({ 'x-long': 'a'.repeat(20_000) });
    expect(long.headers['x-long']).toHaveLength(NET_HTTP_LIMITS.maxResponseHeaderValueBytes);
    expect(long.truncated).toBe(true);

    const big = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`x-${i}`, 'v'.repeat(8000)]));
    const bounded = boundResponseHeaders(big);
    const total = Object.entries(bounded.headers).reduce((n, [k, v]) => n + k.length + v.length, 0);
    expect(total).toBeLessThanOrEqual(NET_HTTP_LIMITS.maxResponseHeaderBytes);
    expect(bounded.truncated).toBe(true);
  });

  it('leaves out named headers', () => {
    expect(
      boundResponseHeaders({ 'content-encoding': 'gzip', a: 'b' }, ['content-encoding']).headers,
    ).toEqual({ a: 'b' });
  });
});
