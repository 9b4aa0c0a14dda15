import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import request from 'supertest';
import { jsonBody } from '../../../src/http/json-body.middleware';

const JSON_TYPE = 'application/json';
const OPTIONS = { limit: 2048, type: ['application/json', 'application/*+json'], strict: true };

/** An app that answers what the parser made of the request: the body, or the error's type and status. */
function app(parser: RequestHandler) {
  const a = express();
  a.use(parser);
  a.post('/echo', (req, res) => {
    res.json({ hasBody: 'body' in req, body: req.body ?? null });
  });
  const onError: ErrorRequestHandler = (err: { type?: string; status?: number }, _req, res, _next) => {
    res.status(299).json({ type: err.type, status: err.status });
  };
  a.use(onError);
  return a;
}

const fast = app(jsonBody(OPTIONS));
const reference = app(express.json(OPTIONS));

const post = (target: express.Express, body: string | undefined, type = 'application/json') => {
  const req = request(target).post('/echo').set('Content-Type', type);
  return body === undefined ? req : req.send(body);
};

describe('jsonBody (express.json with a fast path)', () => {
  it('parses the usual JSON body, with or without charset=utf-8, in any case', async () => {
    const body = { tool: 'mem_set', input: { key: 'k', value: 'é 🚀' } };
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON']) {
      const res = await post(fast, JSON.stringify(body), type);
      expect(res.body).toEqual({ hasBody: true, body });
    }
  });

  it('refuses what is not an object or an array, and malformed JSON, as entity.parse.failed', async () => {
    expect((await post(fast, '"text"')).body).toEqual({ type: 'entity.parse.failed', status: 400 });
    expect((await post(fast, '{"a": ')).body).toEqual({ type: 'entity.parse.failed', status: 400 });
  });

  // Every row names its type: jest would pass `done` for a missing argument.
  it.each<[string, string | undefined, string]>([
    ['an object', '{"a":1}', JSON_TYPE],
    ['a BOM first', '\uFEFF{"a":1}', JSON_TYPE],
    ['whitespace then an array', ' \n [1, 2]', JSON_TYPE],
    ['an empty body', '', JSON_TYPE],
    ['no body', undefined, JSON_TYPE],
    ['a scalar', '"text"', JSON_TYPE],
    ['a number after whitespace', '  42', JSON_TYPE],
    ['malformed JSON', '{"a": ', JSON_TYPE],
    ['a body over the limit', `{"x":"${'x'.repeat(3000)}"}`, JSON_TYPE],
    ['another charset', '{"a":1}', 'application/json; charset=latin1'],
    ['a +json type', '{"p":1}', 'application/merge-patch+json'],
    ['another type', 'a=1', 'text/plain'],
  ])('answers like express.json for %s', async (_what, body, type) => {
    const [mine, theirs] = await Promise.all([post(fast, body, type), post(reference, body, type)]);
    expect(mine.status).toBe(theirs.status);
    expect(mine.body).toEqual(theirs.body);
  });
});

describe('jsonBody: what express.json lacks', () => {
  const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
  const small = app(jsonBody({ ...OPTIONS, limit: 1_000_000, maxDepth: 8 }));

  it('refuses a body nested deeper than maxDepth on the fast path', async () => {
    expect((await post(small, nested(8))).body).toEqual({ hasBody: true, body: JSON.parse(nested(8)) });
    expect((await post(small, nested(9))).body).toEqual({ type: 'entity.too.deep', status: 400 });
    expect((await post(small, `{"a":${nested(200_000)}}`)).body).toEqual({
      type: 'entity.too.deep',
      status: 400,
    });
  });

  it('and on the general path (another JSON media type)', async () => {
    const plusJson = 'application/merge-patch+json';
    expect((await post(small, nested(8), plusJson)).body).toEqual({
      hasBody: true,
      body: JSON.parse(nested(8)),
    });
    expect((await post(small, nested(9), plusJson)).body).toEqual({ type: 'entity.too.deep', status: 400 });
  });

  it('turns a body that does not decompress into encoding.invalid (400), and keeps 415 for codings it does not read', async () => {
    const send = (encoding: string) =>
      request(small)
        .post('/echo')
        .set('Content-Type', JSON_TYPE)
        .set('Content-Encoding', encoding)
        .send('{"plain":true}');
    for (const encoding of ['gzip', 'deflate', 'br']) {
      expect((await send(encoding)).body).toEqual({ type: 'encoding.invalid', status: 400 });
    }
    expect((await send('compress')).body).toEqual({ type: 'encoding.unsupported', status: 415 });
  });
});

describe('jsonBody: a body that came with the headers', () => {
  /**
   * A server that runs the parser a turn after the request arrived, as the front door does
   * (accept-first.ts), and reports whether the route was reached within the parser's own call
   * (`sync`), with what it parsed or the error's type.
   */
  function deferredServer(): Promise<{ port: number; close: () => Promise<void> }> {
    const parser = jsonBody(OPTIONS);
    const server = http.createServer((req, res) => {
      setTimeout(() => {
        let inParser = true;
        parser(req as express.Request, res as express.Response, (err?: unknown) => {
          const sync = inParser;
          const out =
            err === undefined
              ? { sync, body: (req as express.Request).body as unknown }
              : { sync, type: (err as { type?: string }).type };
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify(out));
        });
        inParser = false;
      }, 20);
    });
    return new Promise((resolve) =>
      server.listen(0, '127.0.0.1', () =>
        resolve({
          port: (server.address() as AddressInfo).port,
          close: () => new Promise<void>((done) => server.close(() => done())),
        }),
      ),
    );
  }

  /** One POST written as `parts` (each after `gapMs`); resolves the JSON answer. */
  function rawPost(port: number, body: string, parts: number, gapMs: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const bytes = Buffer.from(body, 'utf8');
      const head = `POST /echo HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${bytes.length}\r\nconnection: close\r\n\r\n`;
      const socket = net.connect(port, '127.0.0.1', () => {
        const cut = Math.floor(bytes.length / parts);
        const pieces = parts === 1 ? [bytes] : [bytes.subarray(0, cut), bytes.subarray(cut)];
        socket.write(Buffer.concat([Buffer.from(head, 'latin1'), pieces[0]!]));
        if (pieces[1]) setTimeout(() => socket.write(pieces[1]!), gapMs);
      });
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (answer += chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))));
    });
  }

  it('is read at once, the route reached within the same call; one still arriving is read as a stream', async () => {
    const server = await deferredServer();
    try {
      const body = { tool: 'mem_set', input: { key: 'k', value: 'é 🚀'.repeat(50) } };
      const text = '\ufeff' + JSON.stringify(body);
      expect(await rawPost(server.port, text, 1, 0)).toEqual({ sync: true, body });
      // The second half comes after the parser started: the same body, through the stream.
      expect(await rawPost(server.port, text, 2, 60)).toEqual({ sync: false, body });
      // The same rules either way.
      expect(await rawPost(server.port, '"text"', 1, 0)).toEqual({ sync: true, type: 'entity.parse.failed' });
      expect(await rawPost(server.port, '[1,', 2, 60)).toEqual({ sync: false, type: 'entity.parse.failed' });
      const tooDeep = '['.repeat(65) + ']'.repeat(65);
      expect(await rawPost(server.port, tooDeep, 1, 0)).toEqual({ sync: true, type: 'entity.too.deep' });
    } finally {
      await server.close();
    }
  });
});
