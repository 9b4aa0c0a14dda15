import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import { encodeBody, readBody } from '../../../../actors/tools/net/body-reader';
import { buildRequest, redirectRequest } from '../../../../actors/tools/net/http-exchange';
import {
  NET_HTTP_INPUT_SCHEMAS,
  NetDnsResolveInputSchema,
  NetHttpGetInputSchema,
  NetHttpPostInputSchema,
} from '../../../../schemas/tools/net-http';

describe('readBody', () => {
  const stream = (...chunks: string[]) => Readable.from(chunks.map((c) => Buffer.from(c)));

  it('reads everything under the cap', async () => {
    const read = await readBody(stream('ab', 'cd'), 4);
    expect(read).toEqual({ buffer: Buffer.from('abcd'), truncated: false, decoded: false });
  });

  it('cuts at the cap and says so', async () => {
    const read = await readBody(stream('ab', 'cd', 'ef'), 3);
    expect(read.buffer.toString()).toBe('abc');
    expect(read.truncated).toBe(true);
    const exact = await readBody(stream('ab', 'cd', 'e'), 4);
    expect(exact.buffer.toString()).toBe('abcd');
    expect(exact.truncated).toBe(true);
  });

  it('applies the cap to decoded bytes of a compressed body', async () => {
    const bomb = gzipSync(Buffer.alloc(5_000_000));
    const read = await readBody(Readable.from([bomb]), 1000, 'gzip');
    expect(read.buffer.length).toBe(1000);
    expect(read.truncated).toBe(true);
    expect(read.decoded).toBe(true);
  });
});

describe('encodeBody', () => {
  it('returns text as utf8 and binary as base64', () => {
    expect(encodeBody(Buffer.from('{"a":1}'), 'application/json', false)).toEqual({
      body: '{"a":1}',
      bodyEncoding: 'utf8',
    });
    expect(encodeBody(Buffer.from('héllo'), undefined, false)).toEqual({
      body: 'héllo',
      bodyEncoding: 'utf8',
    });
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
    expect(encodeBody(png, 'image/png', false)).toEqual({
      body: png.toString('base64'),
      bodyEncoding: 'base64',
    });
    expect(encodeBody(Buffer.from([0xff, 0xfe, 0x00]), undefined, false).bodyEncoding).toBe('base64');
    expect(encodeBody(Buffer.from('a\u0000b'), 'application/x-unknown', false).bodyEncoding).toBe('base64');
  });

  it('honours a declared charset', () => {
    expect(
      encodeBody(Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'text/plain; charset=ISO-8859-1', false),
    ).toEqual({
      body: 'café',
      bodyEncoding: 'utf8',
    });
  });

  it('tolerates a multi-byte character cut by the cap', () => {
    const cut = Buffer.from('abé').subarray(0, 3);
    expect(encodeBody(cut, 'text/plain', true)).toEqual({ body: 'ab', bodyEncoding: 'utf8' });
  });
});

describe('input schemas', () => {
  it('are objects in JSON Schema', () => {
    for (const schema of [...Object.values(NET_HTTP_INPUT_SCHEMAS), NetDnsResolveInputSchema]) {
      expect(z.toJSONSchema(schema, { io: 'input' })).toMatchObject({ type: 'object' });
    }
  });

  it('validate URLs', () => {
    const ok = (url: string) => NetHttpGetInputSchema.safeParse({ url }).success;
    expect(ok('https://example.com/a?b=1')).toBe(true);
    expect(ok('http://example.com/')).toBe(true); // policy, not syntax: refused later without allowHttp
    expect(ok('ftp://example.com/')).toBe(false);
    expect(ok('file:///etc/passwd')).toBe(false);
    expect(ok('https://user:pw@example.com/')).toBe(false);
    expect(ok('example.com')).toBe(false);
    expect(ok(`https://example.com/${'a'.repeat(9000)}`)).toBe(false);
  });

  it('bound timeout and maxBytes', () => {
    expect(NetHttpGetInputSchema.safeParse({ url: 'https://e.com', timeout: 30_001 }).success).toBe(false);
    expect(NetHttpGetInputSchema.safeParse({ url: 'https://e.com', timeout: 0 }).success).toBe(false);
    expect(
      NetHttpGetInputSchema.safeParse({ url: 'https://e.com', maxBytes: 10 * 1024 * 1024 + 1 }).success,
    ).toBe(false);
  });

  it('check bodies', () => {
    const ok = (input: Record<string, unknown>) =>
      NetHttpPostInputSchema.safeParse({ url: 'https://e.com', ...input }).success;
    expect(ok({ body: { a: [1, 'x', null] } })).toBe(true);
    expect(ok({ body: 'text' })).toBe(true);
    expect(ok({ body: 'aGVsbG8=', bodyEncoding: 'base64' })).toBe(true);
    expect(ok({ body: 'not base64!', bodyEncoding: 'base64' })).toBe(false);
    expect(ok({ body: { a: 1 }, bodyEncoding: 'base64' })).toBe(false);
    expect(ok({ bodyEncoding: 'utf8' })).toBe(false);
    expect(ok({ body: 'x'.repeat(10 * 1024 * 1024 + 1) })).toBe(false);
  });
});

describe('buildRequest and redirectRequest', () => {
  it('encodes JSON and text bodies with their content type', () => {
    const json = buildRequest('POST', { url: 'https://e.com', body: { a: 1 } }, {});
    expect(json.body?.toString()).toBe('{"a":1}');
    expect(json.headers['content-type']).toBe('application/json');
    const text = buildRequest('PUT', { url: 'https://e.com', body: 'hi' }, { 'content-type': 'text/csv' });
    expect(text.headers['content-type']).toBe('text/csv');
    const bin = buildRequest('POST', { url: 'https://e.com', body: 'aGk=', bodyEncoding: 'base64' }, {});
    expect(bin.body?.toString()).toBe('hi');
    expect(bin.headers['content-type']).toBe('application/octet-stream');
  });

  it('turns POST into GET on 301/302/303 and keeps it on 307/308', () => {
    const post = buildRequest('POST', { url: 'https://e.com', body: { a: 1 } }, { authorization: 'x' });
    for (const status of [301, 302, 303]) {
      const next = redirectRequest(post, status, false);
      expect(next).toMatchObject({ method: 'GET', body: undefined });
      expect(next.headers).not.toHaveProperty('content-type');
      expect(next.headers).toHaveProperty('authorization');
    }
    for (const status of [307, 308]) {
      expect(redirectRequest(post, status, true)).toMatchObject({ method: 'POST', body: post.body });
      expect(redirectRequest(post, status, true).headers).not.toHaveProperty('authorization');
    }
    const put = buildRequest('PUT', { url: 'https://e.com', body: 'x' }, {});
    expect(redirectRequest(put, 302, false).method).toBe('PUT');
    expect(redirectRequest(put, 303, false).method).toBe('GET');
  });

  it('validates dns input', () => {
    expect(NetDnsResolveInputSchema.safeParse({ hostname: 'example.com', type: 'AAAA' }).success).toBe(true);
    expect(NetDnsResolveInputSchema.safeParse({ hostname: 'https://example.com' }).success).toBe(false);
    expect(NetDnsResolveInputSchema.safeParse({ hostname: 'example.com', type: 'MX' }).success).toBe(false);
  });
});
