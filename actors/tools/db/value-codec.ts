import { errors } from '../../../schemas/errors';
import type { DbField, DbRow } from '../../../schemas/tools/db';
import type { RawField } from './sql-executor';

/**
 * JSON values in and out of PostgreSQL's text format, the same for both backends (the drivers'
 * own parsers are not used, so pg and PGlite answer alike). The representation of each type is
 * described in docs/tool-db.md ("Values").
 */

type Json = DbRow[string];

/** Encodes a JSON value as a text-format parameter (null = SQL NULL). */
export function encodeParam(value: Json | undefined, where: string): string | null {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
      return value;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw errors.validation(`${where}: numbers must be finite`);
      return String(value);
    default:
      // Objects and arrays go as JSON text: what a jsonb column (or a `$1::jsonb`) expects.
      return JSON.stringify(value);
  }
}

/**
 * Encodes a value bound for a column of a known type: for json and jsonb every non-null value is
 * JSON text (so the string "hello" is stored as the JSON string, not parsed as JSON); others as
 * `encodeParam`.
 */
export function encodeColumnValue(
  value: Json | undefined,
  typeOid: number | undefined,
  where: string,
): string | null {
  if (value !== null && value !== undefined && (typeOid === OID.json || typeOid === OID.jsonb)) {
    return JSON.stringify(value);
  }
  return encodeParam(value, where);
}

// Type OIDs are fixed for built-in types in every PostgreSQL version.
const OID = {
  bool: 16,
  bytea: 17,
  char: 18,
  name: 19,
  int8: 20,
  int2: 21,
  int4: 23,
  text: 25,
  oid: 26,
  json: 114,
  xml: 142,
  float4: 700,
  float8: 701,
  bpchar: 1042,
  varchar: 1043,
  date: 1082,
  time: 1083,
  timestamp: 1114,
  timestamptz: 1184,
  interval: 1186,
  timetz: 1266,
  numeric: 1700,
  uuid: 2950,
  jsonb: 3802,
  void: 2278,
} as const;

const TYPE_NAMES = new Map<number, string>([
  [OID.bool, 'boolean'],
  [OID.bytea, 'bytea'],
  [OID.char, 'char'],
  [OID.name, 'name'],
  [OID.int8, 'bigint'],
  [OID.int2, 'smallint'],
  [OID.int4, 'integer'],
  [OID.text, 'text'],
  [OID.oid, 'oid'],
  [OID.json, 'json'],
  [OID.xml, 'xml'],
  [OID.float4, 'real'],
  [OID.float8, 'double precision'],
  [OID.bpchar, 'character'],
  [OID.varchar, 'character varying'],
  [OID.date, 'date'],
  [OID.time, 'time'],
  [OID.timestamp, 'timestamp'],
  [OID.timestamptz, 'timestamptz'],
  [OID.interval, 'interval'],
  [OID.timetz, 'timetz'],
  [OID.numeric, 'numeric'],
  [OID.uuid, 'uuid'],
  [OID.jsonb, 'jsonb'],
  [OID.void, 'void'],
  [705, 'unknown'],
  [2249, 'record'],
]);

/** Array type OID → element type OID. */
const ARRAY_ELEMENTS = new Map<number, number>([
  [1000, OID.bool],
  [1001, OID.bytea],
  [1005, OID.int2],
  [1007, OID.int4],
  [1016, OID.int8],
  [1009, OID.text],
  [1015, OID.varchar],
  [1014, OID.bpchar],
  [1021, OID.float4],
  [1022, OID.float8],
  [1231, OID.numeric],
  [1182, OID.date],
  [1115, OID.timestamp],
  [1185, OID.timestamptz],
  [2951, OID.uuid],
  [199, OID.json],
  [3807, OID.jsonb],
]);

/** SQL name of a type OID (`integer`, `jsonb`, `text[]`…; `unknown` when not a common built-in). */
export function typeName(oid: number): string {
  const element = ARRAY_ELEMENTS.get(oid);
  if (element !== undefined) return `${TYPE_NAMES.get(element) ?? 'unknown'}[]`;
  return TYPE_NAMES.get(oid) ?? 'unknown';
}

/** `numeric` text as a number when that loses nothing visible (at most 15 significant digits). */
function numericValue(text: string): Json {
  const m = /^-?(\d*)(?:\.(\d*))?(?:[eE][+-]?\d+)?$/.exec(text);
  if (!m) return text; // NaN, Infinity
  const digits = `${m[1]}${m[2] ?? ''}`.replace(/^0+/, '').replace(/0+$/, '');
  const n = Number(text);
  return digits.length <= 15 && Number.isFinite(n) ? n : text;
}

/** With TimeZone = UTC and DateStyle = ISO, `2024-01-02 03:04:05.678+00` → `2024-01-02T03:04:05.678Z`. */
function timestampValue(text: string, zoned: boolean): string {
  const m = /^(\d{4,}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d+)?)(\+00)?$/.exec(text);
  if (!m || (zoned && !m[3])) return text; // infinity, BC dates, other zones
  return `${m[1]}T${m[2]}${zoned ? 'Z' : ''}`;
}

/** Decodes one value in text format into JSON. */
export function decodeValue(text: string | null, oid: number): Json {
  if (text === null) return null;
  switch (oid) {
    case OID.bool:
      return text === 't' || text === 'true';
    case OID.int2:
    case OID.int4:
    case OID.oid:
      return Number(text);
    case OID.int8: {
      const n = Number(text);
      return Number.isSafeInteger(n) ? n : text;
    }
    case OID.float4:
    case OID.float8: {
      const n = Number(text);
      return Number.isFinite(n) ? n : text;
    }
    case OID.numeric:
      return numericValue(text);
    case OID.json:
    case OID.jsonb:
      try {
        return JSON.parse(text) as Json;
      } catch {
        return text;
      }
    case OID.timestamptz:
      return timestampValue(text, true);
    case OID.timestamp:
      return timestampValue(text, false);
    default: {
      const element = ARRAY_ELEMENTS.get(oid);
      return element === undefined ? text : parseArray(text, element);
    }
  }
}

/**
 * Parses an array literal (`{1,2,NULL}`, `{{a,b},{c,d}}`, `{"x y","q\"z"}`) and decodes its
 * elements. A literal with explicit bounds (`[0:1]={…}`) is returned as text.
 */
function parseArray(text: string, elementOid: number): Json {
  if (!text.startsWith('{')) return text;
  let i = 0;
  const parse = (): Json[] => {
    const out: Json[] = [];
    i++; // '{'
    if (text[i] === '}') {
      i++;
      return out;
    }
    for (;;) {
      if (text[i] === '{') {
        out.push(parse());
      } else if (text[i] === '"') {
        let value = '';
        i++;
        while (i < text.length && text[i] !== '"') {
          if (text[i] === '\\') i++;
          value += text[i++];
        }
        i++;
        out.push(decodeValue(value, elementOid));
      } else {
        const start = i;
        while (i < text.length && text[i] !== ',' && text[i] !== '}') i++;
        const raw = text.slice(start, i).trim();
        out.push(raw === 'NULL' ? null : decodeValue(raw, elementOid));
      }
      if (text[i] === ',') i++;
      else if (text[i] === '}') {
        i++;
        return out;
      } else {
        throw new Error('malformed array');
      }
    }
  };
  try {
    return parse();
  } catch {
    return text;
  }
}

/**
 * Decodes rows in text format into JSON objects (a later column of the same name wins over an
 * earlier one) and names the fields' types.
 */
export function decodeRows(
  fields: RawField[],
  rows: (string | null)[][],
): { fields: DbField[]; rows: DbRow[] } {
  const out = rows.map((raw) => {
    const row: DbRow = {};
    fields.forEach((f, idx) => {
      // defineProperty: a column named "__proto__" stays a plain property.
      Object.defineProperty(row, f.name, {
        value: decodeValue(raw[idx] ?? null, f.typeOid),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    });
    return row;
  });
  return { fields: fields.map((f) => ({ name: f.name, type: typeName(f.typeOid) })), rows: out };
}
