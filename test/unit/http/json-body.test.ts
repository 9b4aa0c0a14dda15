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
