import type { Request } from 'express';
import { z } from 'zod';
import { AppError } from '../../../schemas/errors';
import { toHttpFailure } from '../../../src/http/error.middleware';
import { parseBody, parseParams } from '../../../src/http/validation';

const req = (body: unknown, headers: Record<string, string> = {}, params: Record<string, string> = {}) =>
  ({ body, headers, params }) as unknown as Request;

function failure(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected a failure');
}

describe('parseBody', () => {
  it('returns the parsed (transformed) value', () => {
    const schema = z.object({ n: z.coerce.number(), name: z.string().trim() });
    expect(parseBody(schema, req({ n: '4', name: ' a ' }))).toEqual({ n: 4, name: 'a' });
  });

  it('formats nested paths and names the root for a wrong top-level type', () => {
    const schema = z.object({ items: z.array(z.object({ name: z.string() })) });
    const nested = failure(() => parseBody(schema, req({ items: [{ name: 'a' }, { name: 2 }] })));
    expect(nested.details.details).toEqual([{ path: 'items[1].name', message: expect.any(String) }]);
    const root = failure(() => parseBody(schema, req([1, 2])));
    expect(root.details.details).toEqual([{ path: '', message: expect.any(String) }]);
    expect(root.message).toBe('Invalid request body: expected object, received array');
    expect(nested.message).toBe('Invalid request body: items[1].name: expected string, received number');
  });

  it('names at most five issues in the summary, and all in details', () => {
    const schema = z.object(Object.fromEntries('abcdefg'.split('').map((k) => [k, z.string()])));
    const err = failure(() => parseBody(schema, req({})));
    expect(err.message).toContain('(and 2 more)');
    expect(err.message).not.toContain('f:');
    expect(err.details.details).toHaveLength(7);
  });
});

describe('parseParams', () => {
  it('validates path parameters', () => {
    const schema = z.object({ id: z.string().regex(/^exe_/) });
    expect(parseParams(schema, req(undefined, {}, { id: 'exe_1' }))).toEqual({ id: 'exe_1' });
    expect(failure(() => parseParams(schema, req(undefined, {}, { id: 'x' }))).message).toMatch(
      /^Invalid path parameters: id: /,
    );
  });
});

describe('toHttpFailure', () => {
  it('rebuilds the body of a wire-shaped AppError without toBody()', () => {
    const wire = { name: 'AppError', code: 'CONFLICT', message: 'Taken', details: { field: 'email' } };
    expect(toHttpFailure(wire, 'r1')).toMatchObject({
      status: 409,
      body: { error: 'Taken', code: 'CONFLICT', field: 'email' },
    });
  });

  it('ignores an unusable retryAfter', () => {
    const err = new AppError('RATE_LIMITED', 'Slow down', { retryAfter: 'soon' });
    expect(toHttpFailure(err, 'r1').headers).toEqual({});
    expect(toHttpFailure(new AppError('RATE_LIMITED', 'x', { retryAfter: '0' }), 'r').headers).toEqual({
      'Retry-After': '1',
    });
  });

  it('hides everything about an unknown error but the request id', () => {
    for (const extra of [{}, { status: 503, expose: false }, { statusCode: 500 }]) {
      const f = toHttpFailure(Object.assign(new Error('db password=x'), extra), 'r9');
      expect(f).toEqual({
        status: 500,
        body: { error: 'Internal error', code: 'INTERNAL_ERROR', requestId: 'r9' },
        headers: {},
        logLevel: 'error',
      });
    }
  });

  it("keeps the 4xx status a library's error carries, with a message of ours", () => {
    const f = toHttpFailure(Object.assign(new Error('db password=x'), { status: 400, expose: true }), 'r9');
    expect(f).toEqual({
      status: 400,
      body: { error: 'Bad Request', code: 'VALIDATION_ERROR' },
      headers: {},
      logLevel: 'debug',
    });
    // The router's URIError for a path parameter like %ff%fe.
    const uri = toHttpFailure(
      Object.assign(new URIError("Failed to decode param '%ff'"), { status: 400 }),
      'r',
    );
    expect(uri).toMatchObject({
      status: 400,
      body: { error: 'Malformed percent-encoding in the URL', code: 'VALIDATION_ERROR' },
    });
    // A status shared by several codes gets the generic one, never a domain code of that status.
    expect(toHttpFailure(Object.assign(new Error('x'), { status: 409 }), 'r')).toMatchObject({
      status: 409,
      body: { code: 'CONFLICT' },
    });
    // A status of the registry gets its code; another 4xx keeps its status.
    expect(toHttpFailure(Object.assign(new Error('x'), { statusCode: 404 }), 'r')).toMatchObject({
      status: 404,
      body: { error: 'Not Found', code: 'NOT_FOUND' },
    });
    expect(toHttpFailure(Object.assign(new Error('x'), { status: 415 }), 'r')).toMatchObject({
      status: 415,
      body: { code: 'UNSUPPORTED_MEDIA_TYPE' },
    });
    expect(toHttpFailure(Object.assign(new Error('x'), { status: 416 }), 'r')).toMatchObject({
      status: 416,
      body: { error: 'Range Not Satisfiable', code: 'VALIDATION_ERROR' },
    });
  });

  it('answers the body errors of the parser: too deep, not its encoding, an encoding not read', () => {
    const deep = Object.assign(new Error('x'), { status: 400, type: 'entity.too.deep', maxDepth: 64 });
    expect(toHttpFailure(deep, 'r')).toMatchObject({
      status: 400,
      body: { error: 'JSON body nested deeper than 64 levels', code: 'VALIDATION_ERROR', maxDepth: 64 },
    });
    const invalid = Object.assign(new Error('incorrect header check'), {
      status: 400,
      type: 'encoding.invalid',
      encoding: 'gzip',
    });
    expect(toHttpFailure(invalid, 'r')).toMatchObject({
      status: 400,
      body: {
        error: 'The body is not valid gzip data, as its Content-Encoding says',
        code: 'VALIDATION_ERROR',
      },
    });
    for (const type of ['encoding.unsupported', 'charset.unsupported']) {
      const err = Object.assign(new Error('x'), { status: 415, type });
      expect(toHttpFailure(err, 'r')).toMatchObject({
        status: 415,
        body: { code: 'UNSUPPORTED_MEDIA_TYPE' },
      });
    }
  });
});
