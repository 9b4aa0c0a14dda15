import { MongoNetworkError, MongoServerError, MongoServerSelectionError } from 'mongodb';
import { escapeGlob } from '../../../src/store/cache/redis.cache';
import { mapRedisError } from '../../../src/store/cache/redis-errors';
import { duplicateKeyFields, mapMongoError } from '../../../src/store/mongo/mongo-errors';
import { redactUrl } from '../../../src/store/redact-url';

describe('redactUrl', () => {
  it('hides user info, whatever the password holds', () => {
    expect(redactUrl('redis://:s3cret@host:6379/0')).toBe('redis://***@host:6379/0');
    expect(redactUrl('mongodb://u:p@ss/w:rd@h1:1,h2:2/db?authSource=admin')).toBe(
      'mongodb://***@h1:1,h2:2/db?authSource=admin',
    );
    expect(redactUrl('mongodb://h:27017/db?x=a@b')).toBe('mongodb://h:27017/db?x=a@b');
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(redactUrl('not a url')).toBe('not a url');
  });
});

describe('escapeGlob', () => {
  it('escapes every SCAN MATCH metacharacter', () => {
    expect(escapeGlob('a*b?c[d]e\\f')).toBe('a\\*b\\?c\\[d\\]e\\\\f');
    expect(escapeGlob('agent:abc:')).toBe('agent:abc:');
  });
});

describe('mapRedisError', () => {
  const reply = (message: string) => Object.assign(new Error(message), { name: 'ReplyError' });
  it('separates outages from refused commands', () => {
    expect(mapRedisError(new Error('connect ECONNREFUSED 127.0.0.1:6379'), 'get')).toMatchObject({
      code: 'UNAVAILABLE',
    });
    expect(mapRedisError(new Error('Command timed out'), 'get')).toMatchObject({ code: 'UNAVAILABLE' });
    expect(mapRedisError(reply('LOADING Redis is loading the dataset in memory'), 'get')).toMatchObject({
      code: 'UNAVAILABLE',
    });
    expect(mapRedisError(reply('ERR value is not an integer or out of range'), 'incr', 'k')).toMatchObject({
      code: 'INTERNAL_ERROR',
      details: { key: 'k' },
    });
    expect(mapRedisError(reply('WRONGTYPE Operation against a key'), 'get')).toMatchObject({
      code: 'INTERNAL_ERROR',
    });
  });
});

describe('mapMongoError', () => {
  it('maps unreachable, failover and overload errors to UNAVAILABLE', () => {
    const selection = new MongoServerSelectionError('Server selection timed out after 400 ms', {} as never);
    expect(mapMongoError(selection, { collection: 'c' })).toMatchObject({
      code: 'UNAVAILABLE',
      message: 'document store unreachable',
      retryable: true,
      details: { collection: 'c', reason: 'MongoServerSelectionError' },
    });
    expect(mapMongoError(new MongoNetworkError('socket hang up'))).toMatchObject({ code: 'UNAVAILABLE' });
    expect(mapMongoError(new MongoServerError({ code: 10107, errmsg: 'not primary' }))).toMatchObject({
      code: 'UNAVAILABLE',
    });
    const overloaded = new MongoServerError({
      code: 999,
      errmsg: 'busy',
      errorLabels: ['SystemOverloadedError'],
    });
    expect(mapMongoError(overloaded)).toMatchObject({ code: 'UNAVAILABLE' });
  });

  it('maps duplicate keys to CONFLICT with field names only', () => {
    const dup = new MongoServerError({
      code: 11000,
      errmsg: 'E11000 duplicate key error collection: db.users index: email_1 dup key: { email: "a@b.c" }',
      keyPattern: { email: 1 },
      keyValue: { email: 'a@b.c' },
    });
    const err = mapMongoError(dup, { collection: 'users' });
    expect(err).toMatchObject({
      code: 'CONFLICT',
      message: 'duplicate email in users',
      details: { fields: ['email'], index: 'email_1' },
    });
    expect(JSON.stringify(err.toBody())).not.toContain('a@b.c');
  });

  it('falls back to the index name when the server sends no keyPattern', () => {
    const dup = (index: string) =>
      new MongoServerError({ code: 11000, errmsg: `E11000 duplicate key error index: ${index} dup key: {}` });
    expect(duplicateKeyFields(dup('created_at_1_tenant_id_-1'))).toEqual({
      fields: ['created_at', 'tenant_id'],
      index: 'created_at_1_tenant_id_-1',
    });
    expect(duplicateKeyFields(dup('by_owner'))).toEqual({ fields: ['by_owner'], index: 'by_owner' });
  });

  it('maps MaxTimeMSExpired to DEADLINE_EXCEEDED and anything else to INTERNAL_ERROR', () => {
    expect(
      mapMongoError(new MongoServerError({ code: 50, errmsg: 'operation exceeded time limit' })),
    ).toMatchObject({
      code: 'DEADLINE_EXCEEDED',
    });
    expect(
      mapMongoError(new MongoServerError({ code: 2, errmsg: 'bad value' }), { op: 'find' }),
    ).toMatchObject({
      code: 'INTERNAL_ERROR',
      message: 'document store error in find',
      details: { mongoCode: 2 },
    });
  });
});
