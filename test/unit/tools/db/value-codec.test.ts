import { z } from 'zod';
import {
  agentSchemaName,
  agentSchemaPattern,
  createTableSql,
  insertSteps,
  quoteIdent,
  quoteLiteral,
} from '../../../../actors/tools/db/sql-builder';
import { codeForSqlState } from '../../../../actors/tools/db/sql-errors';
import { parseCommandTag } from '../../../../actors/tools/db/sql-executor';
import {
  decodeValue,
  encodeColumnValue,
  encodeParam,
  typeName,
} from '../../../../actors/tools/db/value-codec';
import { DB_TOOL_INPUT_SCHEMAS, DbCreateTableInputSchema } from '../../../../schemas/tools/db';

describe('private databases: values, names and statements', () => {
  it('encodes JSON parameters as text', () => {
    expect([null, 'a', true, false, 12, 1.5, { a: [1] }, [1, 'x']].map((v) => encodeParam(v, 'p'))).toEqual([
      null,
      'a',
      'true',
      'false',
      '12',
      '1.5',
      '{"a":[1]}',
      '[1,"x"]',
    ]);
  });

  it('encodes every non-null value of a json/jsonb column as JSON text', () => {
    expect(['hello', '{"a":1}', 5, null].map((v) => encodeColumnValue(v, 3802, 'x'))).toEqual([
      '"hello"',
      '"{\\"a\\":1}"',
      '5',
      null,
    ]);
    expect(encodeColumnValue('hello', 25, 'x')).toBe('hello');
  });

  it('decodes text values into JSON', () => {
    expect(decodeValue('t', 16)).toBe(true);
    expect(decodeValue('42', 23)).toBe(42);
    expect(decodeValue('9007199254740991', 20)).toBe(9007199254740991);
    expect(decodeValue('9007199254740993', 20)).toBe('9007199254740993');
    expect(decodeValue('NaN', 701)).toBe('NaN');
    expect(decodeValue('2.50', 1700)).toBe(2.5);
    expect(decodeValue('3.14159265358979323846', 1700)).toBe('3.14159265358979323846');
    expect(decodeValue('{"a":1}', 3802)).toEqual({ a: 1 });
    expect(decodeValue('2024-01-02 03:04:05.123456+00', 1184)).toBe('2024-01-02T03:04:05.123456Z');
    expect(decodeValue('2024-01-02 03:04:05', 1114)).toBe('2024-01-02T03:04:05');
    expect(decodeValue('infinity', 1184)).toBe('infinity');
    expect(decodeValue('{{1,2},{3,NULL}}', 1007)).toEqual([
      [1, 2],
      [3, null],
    ]);
    expect(decodeValue('{"a \\"b\\"",NULL,"NULL"}', 1009)).toEqual(['a "b"', null, 'NULL']);
    expect(decodeValue('{"{\\"x\\": 1}"}', 3807)).toEqual([{ x: 1 }]);
    expect(decodeValue('[0:1]={1,2}', 1007)).toBe('[0:1]={1,2}');
    expect(decodeValue(null, 25)).toBeNull();
    expect([typeName(23), typeName(1009), typeName(999999)]).toEqual(['integer', 'text[]', 'unknown']);
  });

  it('quotes names and literals', () => {
    expect(quoteIdent('a"b')).toBe('"a""b"');
    expect(quoteLiteral("it's")).toBe("'it''s'");
    expect(() => quoteIdent('a\0')).toThrow();
  });

  it('derives stable, valid schema names from any agent id', () => {
    const name = agentSchemaName('weird id"; drop schema x; --', 'agent_');
    expect(name).toMatch(/^agent_[0-9a-f]{32}$/);
    expect(agentSchemaName('weird id"; drop schema x; --', 'agent_')).toBe(name);
    expect(agentSchemaName('other', 'agent_')).not.toBe(name);
    expect(agentSchemaPattern('agent_').test(name)).toBe(true);
  });

  it('writes CREATE TABLE with quoted names, constraints and typed literal defaults', () => {
    const input = DbCreateTableInputSchema.parse({
      table: 'T1',
      schema: [
        { column: 'Id', type: 'int8', primaryKey: true },
        { column: 'name', type: 'text', nullable: false, unique: true, default: "o'k" },
        { column: 'at', type: 'timestamptz', default: 'now()' },
      ],
    });
    expect(createTableSql('agent_x', input.table, input.schema, true)).toBe(
      'CREATE TABLE IF NOT EXISTS "agent_x"."t1" ("id" bigint NOT NULL, "name" text NOT NULL UNIQUE DEFAULT \'o\'\'k\'::text, "at" timestamptz DEFAULT now(), PRIMARY KEY ("id"))',
    );
  });

  it('splits big inserts so that no statement binds more than 65,535 parameters', () => {
    const row = new Map(Array.from({ length: 100 }, (_, i) => [`c${i}`, i] as [string, number]));
    const steps = insertSteps(
      's',
      't',
      Array.from({ length: 1000 }, () => row),
      1001,
      (_c, v, w) => encodeParam(v, w),
    );
    expect(steps).toHaveLength(2);
    expect(steps.map((s) => s.params!.length)).toEqual([65_500, 34_500]);
    const sparse = insertSteps('s', 't', [new Map([['a', 1]]), new Map([['b', null]])], 3, (_c, v, w) =>
      encodeParam(v, w),
    );
    expect(sparse[0]).toMatchObject({
      sql: 'INSERT INTO "s"."t" ("a", "b") VALUES ($1, DEFAULT), (DEFAULT, $2) RETURNING *',
      params: ['1', null],
    });
  });

  it('reads command tags and maps SQLSTATEs to error codes', () => {
    expect(parseCommandTag('INSERT 0 3')).toEqual({ command: 'INSERT', rowCount: 3 });
    expect(parseCommandTag('SELECT 2')).toEqual({ command: 'SELECT', rowCount: 2 });
    expect(parseCommandTag('CREATE TABLE')).toEqual({ command: 'CREATE TABLE' });
    expect(
      ['23505', '42P07', '42601', '23502', '57014', '42501', '08006', '08P01', '40P01', 'XX000'].map(
        (s) => codeForSqlState(s).code,
      ),
    ).toEqual([
      'CONFLICT',
      'CONFLICT',
      'VALIDATION_ERROR',
      'VALIDATION_ERROR',
      'DEADLINE_EXCEEDED',
      'PERMISSION_DENIED',
      'UNAVAILABLE',
      'VALIDATION_ERROR',
      'CONFLICT',
      'INTERNAL_ERROR',
    ]);
  });

  it('exposes every tool input as a JSON Schema object', () => {
    for (const [name, schema] of Object.entries(DB_TOOL_INPUT_SCHEMAS)) {
      const json = z.toJSONSchema(schema, { io: 'input' }) as { type?: string };
      expect([name, json.type]).toEqual([name, 'object']);
    }
  });
});
