import net from 'node:net';
import zlib from 'node:zlib';
import { MAX_JSON_DEPTH } from '../../../schemas/json-depth';
import { startRouterHarness, type RouterHarness } from '../tools/support/router-harness';

/**
 * Bad input reaches no route, schema or tool as a 500 (issue 15, items 1 to 4): deep nesting, a
 * malformed percent-encoding, a body that is not its Content-Encoding, and requests Node's HTTP
 * parser refuses. Each answers a 4xx with the JSON error body of every other error.
 */

let h: RouterHarness;
let token: string;

beforeAll(async () => {
  h = await startRouterHarness();
  token = (await h.account()).token;
});
afterAll(async () => {
  await h?.stop();
});

const bearer = () => ({ Authorization: `Bearer ${token}` });
const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

/** A POST with the bytes as given (supertest would serialise a Buffer as JSON). */
async function postBytes(
  path: string,
  headers: Record<string, string>,
  body: Buffer | string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(h.url + path, {
    method: 'POST',
    headers: { ...bearer(), 'Content-Type': 'application/json', ...headers },
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/**
 * The answer to a raw request: status line, headers, body (the server closes the connection: the
 * request asks it to, or it is refused before any route). The client does not close its side
 * first: the front door queues requests for a turn (src/http/accept-first.ts), and Node ends a
 * connection whose client closed its side before the answer is written.
 */
function rawRequest(text: string): Promise<{ statusLine: string; headers: string; body: string }> {
  const { port } = new URL(h.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const split = raw.indexOf('\r\n\r\n');
      const head = split === -1 ? raw : raw.slice(0, split);
      const [statusLine, ...headers] = head.split('\r\n');
      resolve({ statusLine, headers: headers.join('\n'), body: split === -1 ? '' : raw.slice(split + 4) });
    });
    socket.write(text);
  });
}

describe('deep nesting is refused at the body parser (item 1)', () => {
  const tooDeep = { code: 'VALIDATION_ERROR', maxDepth: MAX_JSON_DEPTH };

  it('POST /api/memory with content 5,000 arrays deep: 400, not a stack overflow', async () => {
    const res = await h
      .http()
      .post('/api/memory')
      .set(bearer())
      .set('Content-Type', 'application/json')
      .send(`{"key":"deep","content":${nested(5000)}}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(tooDeep);
    expect(res.body.error).toBe(`JSON body nested deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it.each([
    ['mem_set value', (v: string) => `{"tool":"mem_set","input":{"key":"k","value":${v}}}`],
    [
      'events_publish payload',
      (v: string) => `{"tool":"events_publish","input":{"topic":"t","payload":${v}}}`,
    ],
    ['db_query params', (v: string) => `{"tool":"db_query","input":{"sql":"select 1","params":${v}}}`],
  ])('POST /mcp with a %s 10,000 deep: 400', async (_what, body) => {
    const res = await h
      .http()
      .post('/mcp')
      .set(bearer())
      .set('Content-Type', 'application/json')
      .send(body(nested(10_000)));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(tooDeep);
  });

  it('also on the general path: chunked, and gzip-compressed', async () => {
    const body = Buffer.from(`{"key":"deep","content":${nested(5000)}}`);
    const chunked = await rawRequest(
      'POST /api/memory HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        `Authorization: Bearer ${token}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n` +
        `${body.length.toString(16)}\r\n${body.toString()}\r\n0\r\n\r\n`,
    );
    expect(chunked.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(chunked.body)).toMatchObject(tooDeep);

    const gzipped = await postBytes('/api/memory', { 'Content-Encoding': 'gzip' }, zlib.gzipSync(body));
    expect(gzipped.status).toBe(400);
    expect(gzipped.body).toMatchObject(tooDeep);
  });

  it(`accepts ${MAX_JSON_DEPTH} levels, refuses ${MAX_JSON_DEPTH + 1}`, async () => {
    // The body object is the first level.
    const at = (levels: number) =>
      h
        .http()
        .post('/api/memory')
        .set(bearer())
        .set('Content-Type', 'application/json')
        .send(`{"key":"depth-${levels}","content":${nested(levels - 1)}}`);
    expect((await at(MAX_JSON_DEPTH)).status).toBe(201);
    const over = await at(MAX_JSON_DEPTH + 1);
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject(tooDeep);
  });

  it('a Studio --json payload 10,000 deep is a syntax error, not a 500', async () => {
    const res = await h
      .http()
      .post('/api/studio/command')
      .set(bearer())
      .send({ command: `tool run mem_get --json {"key":${nested(10_000)}}` });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      kind: 'error',
      summary: `The payload after --json is nested deeper than ${MAX_JSON_DEPTH} levels`,
      result: { code: 'SYNTAX_ERROR' },
    });
  });
});

describe('a malformed percent-encoding keeps its 400 (item 2)', () => {
  it.each([
    '/api/executions/%ff%fe',
    '/api/executions/%ff%fe/actions',
    '/api/executions/%ff%fe/events',
    '/api/workspaces/%ff%fe',
    '/api/connectors/%ff%fe',
  ])('GET %s: 400 JSON', async (path) => {
    const res = await h.http().get(path).set(bearer());
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Malformed percent-encoding in the URL', code: 'VALIDATION_ERROR' });
  });
});

describe('a body that is not its Content-Encoding (item 3)', () => {
  const post = (path: string, encoding: string, body: Buffer | string) =>
    postBytes(path, { 'Content-Encoding': encoding }, body);
  const invalid = (encoding: string) => ({
    error: `The body is not valid ${encoding} data, as its Content-Encoding says`,
    code: 'VALIDATION_ERROR',
  });

  it('gzip on a plain body: 400', async () => {
    const res = await post('/api/memory', 'gzip', '{"key":"a","content":1}');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid('gzip'));
  });

  it('truncated gzip: 400; the whole stream is read', async () => {
    const whole = zlib.gzipSync(Buffer.from(JSON.stringify({ key: 'gz', content: 'x'.repeat(4000) })));
    const res = await post('/api/memory', 'gzip', whole.subarray(0, whole.length - 20));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid('gzip'));
    expect((await post('/api/memory', 'gzip', whole)).status).toBe(201);
  });

  it('deflate on /api/files and br on /api/memory, both plain: 400', async () => {
    const files = await post('/api/files', 'deflate', '{"path":"/notes/a.txt","data":"x"}');
    expect(files.status).toBe(400);
    expect(files.body).toEqual(invalid('deflate'));
    const memory = await post('/api/memory', 'br', '{"key":"a","content":1}');
    expect(memory.status).toBe(400);
    expect(memory.body).toEqual(invalid('br'));
  });

  it('a coding the service does not read: 415', async () => {
    const res = await post('/api/memory', 'compress', '{"key":"a","content":1}');
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', error: expect.any(String) });
  });
});

describe("requests Node's HTTP parser refuses get the JSON error body (item 4)", () => {
  it('a bad chunk size: 400 JSON', async () => {
    const res = await rawRequest(
      'POST /api/memory HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    );
    expect(res.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(res.headers).toMatch(/content-type: application\/json; charset=utf-8/i);
    expect(JSON.parse(res.body)).toEqual({
      error: 'Malformed HTTP request: Invalid character in chunk size',
      code: 'VALIDATION_ERROR',
    });
  });

  it('Content-Length together with Transfer-Encoding: 400 JSON', async () => {
    const res = await rawRequest(
      'POST /api/memory HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
    );
    expect(res.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(res.body)).toEqual({
      error: "Malformed HTTP request: Transfer-Encoding can't be present with Content-Length",
      code: 'VALIDATION_ERROR',
    });
  });

  it('a 20 KB query string: 431 JSON', async () => {
    const res = await rawRequest(`GET /health?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    expect(res.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(JSON.parse(res.body)).toMatchObject({
      code: 'HEADERS_TOO_LARGE',
      error: expect.stringContaining('a long query string counts'),
      limitBytes: expect.any(Number),
    });
  });

  it('the server goes on answering afterwards', async () => {
    expect((await h.http().get('/health')).status).toBe(200);
  });
});
