import { Binary, Decimal128, EJSON, Long, ObjectId } from 'bson';

/**
 * Canonical string for a BSON value, used as the key of the `_id` map and of unique indexes:
 * two values get the same key exactly when MongoDB's equality (without collation) says they are
 * equal. Numbers compare by value across int/long/double, as in MongoDB; documents compare with
 * their field order; every other type is tagged so values of different types never collide.
 */
export function valueKey(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return 's' + value;
    case 'number':
      return numberKey(value);
    case 'boolean':
      return value ? 'T' : 'F';
    case 'undefined':
      return 'z';
    case 'bigint':
      return numberKey(Number(value), value.toString());
    default:
      break;
  }
  if (value === null) return 'z';
  if (value instanceof ObjectId) return 'o' + value.toHexString();
  if (value instanceof Date) return 'd' + value.getTime();
  if (Array.isArray(value)) return '[' + value.map(valueKey).join(',') + ']';
  if (value instanceof Binary)
    return 'x' + value.sub_type + ':' + Buffer.from(value.buffer).toString('base64');
  if (value instanceof Long) return numberKey(value.toNumber(), value.toString());
  if (value instanceof Decimal128) return 'n' + value.toString();
  if (value instanceof RegExp) return 'r' + value.source + '/' + value.flags;
  if (isPlainObject(value)) {
    let out = '{';
    for (const k of Object.keys(value)) out += JSON.stringify(k) + ':' + valueKey(value[k]) + ',';
    return out + '}';
  }
  // Timestamp, MinKey, MaxKey, Code, DBRef, Symbol...: rare as keys; EJSON canonical is exact.
  return 'e' + EJSON.stringify(value as never, { relaxed: false });
}

function numberKey(n: number, exact?: string): string {
  if (Number.isNaN(n)) return 'nNaN';
  // Beyond 2^53 a double cannot tell neighbouring integers apart; keep the exact digits of a Long.
  if (exact !== undefined && !Number.isSafeInteger(n)) return 'n' + exact;
  return 'n' + (n === 0 ? '0' : String(n));
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * `target[key] = value` that also works for a field named `__proto__` (a plain assignment would
 * replace the object's prototype instead of creating the field).
 */
export function setField(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
