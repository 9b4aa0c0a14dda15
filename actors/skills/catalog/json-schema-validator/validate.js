/**
 * Validates data against a JSON Schema (draft 2020-12 keywords): type, enum, const, the numeric
 * and string bounds, pattern, format (email, uri, date, date-time, uuid, ipv4), properties,
 * required, additionalProperties, patternProperties, items, prefixItems, min/maxItems,
 * uniqueItems, contains, allOf, anyOf, oneOf, not, if/then/else, $ref to #/$defs. Every error
 * comes with the instance path and the schema path.
 */
function run(params) {
  const root = params.schema;
  const errors = [];
  const max = params.maxErrors || 100;
  const FORMATS = {
    email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
    uri: /^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s]*$/,
    date: /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/,
    'date-time': /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/,
    uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    ipv4: /^((25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(25[0-5]|2[0-4]\d|1?\d?\d)$/,
  };
  const typeOf = (v) =>
    v === null
      ? 'null'
      : Array.isArray(v)
        ? 'array'
        : typeof v === 'number' && Number.isInteger(v)
          ? 'integer'
          : typeof v;
  const isType = (v, t) => t === typeOf(v) || (t === 'number' && typeof v === 'number');
  const equal = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const resolve = (ref) => {
    if (!/^#(\/|$)/.test(ref)) throw new Error('Only local $ref (#/...) are supported: ' + ref);
    return ref
      .slice(2)
      .split('/')
      .filter(Boolean)
      .reduce((s, k) => {
        const key = k.replace(/~1/g, '/').replace(/~0/g, '~');
        if (!s || !(key in s)) throw new Error('$ref not found: ' + ref);
        return s[key];
      }, root);
  };
  function check(schema, data, path, spath, depth) {
    if (depth > 64) throw new Error('Schema nesting deeper than 64 (a $ref loop?)');
    if (schema === true) return true;
    if (schema === false) return fail(path, spath, 'false schema: no value allowed');
    let ok = true;
    const sub = (s, d, p, sp) => check(s, d, p, sp, depth + 1);
    function fail(p, sp, message) {
      if (errors.length < max) errors.push({ path: p || '/', schemaPath: sp || '#', message });
      ok = false;
      return false;
    }
    if (schema.$ref) ok = sub(resolve(schema.$ref), data, path, schema.$ref) && ok;
    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      if (!types.some((t) => isType(data, t)))
        fail(path, spath + '/type', 'must be ' + types.join(' or ') + ', got ' + typeOf(data));
    }
    if (schema.enum && !schema.enum.some((e) => equal(e, data)))
      fail(path, spath + '/enum', 'must be one of ' + JSON.stringify(schema.enum));
    if ('const' in schema && !equal(schema.const, data))
      fail(path, spath + '/const', 'must equal ' + JSON.stringify(schema.const));
    if (typeof data === 'number') {
      if (schema.minimum !== undefined && data < schema.minimum)
        fail(path, spath + '/minimum', 'must be >= ' + schema.minimum);
      if (schema.maximum !== undefined && data > schema.maximum)
        fail(path, spath + '/maximum', 'must be <= ' + schema.maximum);
      if (schema.exclusiveMinimum !== undefined && data <= schema.exclusiveMinimum)
        fail(path, spath + '/exclusiveMinimum', 'must be > ' + schema.exclusiveMinimum);
      if (schema.exclusiveMaximum !== undefined && data >= schema.exclusiveMaximum)
        fail(path, spath + '/exclusiveMaximum', 'must be < ' + schema.exclusiveMaximum);
      if (
        schema.multipleOf !== undefined &&
        Math.abs(data / schema.multipleOf - Math.round(data / schema.multipleOf)) > 1e-9
      )
        fail(path, spath + '/multipleOf', 'must be a multiple of ' + schema.multipleOf);
    }
    if (typeof data === 'string') {
      const len = Array.from(data).length;
      if (schema.minLength !== undefined && len < schema.minLength)
        fail(path, spath + '/minLength', 'must have at least ' + schema.minLength + ' characters');
      if (schema.maxLength !== undefined && len > schema.maxLength)
        fail(path, spath + '/maxLength', 'must have at most ' + schema.maxLength + ' characters');
      if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(data))
        fail(path, spath + '/pattern', 'must match ' + schema.pattern);
      if (schema.format && FORMATS[schema.format] && !FORMATS[schema.format].test(data))
        fail(path, spath + '/format', 'must be a valid ' + schema.format);
    }
    if (Array.isArray(data)) {
      if (schema.minItems !== undefined && data.length < schema.minItems)
        fail(path, spath + '/minItems', 'must have at least ' + schema.minItems + ' items');
      if (schema.maxItems !== undefined && data.length > schema.maxItems)
        fail(path, spath + '/maxItems', 'must have at most ' + schema.maxItems + ' items');
      if (schema.uniqueItems) {
        const seen = {};
        data.forEach((d, i) => {
          const k = JSON.stringify(d);
          if (seen[k] !== undefined)
            fail(path + '/' + i, spath + '/uniqueItems', 'duplicates item ' + seen[k]);
          else seen[k] = i;
        });
      }
      const prefix = schema.prefixItems || [];
      prefix.forEach((s, i) => {
        if (i < data.length) ok = sub(s, data[i], path + '/' + i, spath + '/prefixItems/' + i) && ok;
      });
      if (schema.items !== undefined)
        for (let i = prefix.length; i < data.length; i++)
          ok = sub(schema.items, data[i], path + '/' + i, spath + '/items') && ok;
      if (schema.contains !== undefined) {
        const before = errors.length;
        const hits = data.filter((d, i) =>
          check(schema.contains, d, path + '/' + i, spath + '/contains', depth + 1),
        ).length;
        errors.length = before;
        if (hits < (schema.minContains === undefined ? 1 : schema.minContains))
          fail(path, spath + '/contains', 'must contain a matching item');
      }
    }
    if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
      const keys = Object.keys(data);
      for (const r of schema.required || [])
        if (!(r in data)) fail(path + '/' + r, spath + '/required', 'is required');
      if (schema.minProperties !== undefined && keys.length < schema.minProperties)
        fail(path, spath + '/minProperties', 'must have at least ' + schema.minProperties + ' properties');
      if (schema.maxProperties !== undefined && keys.length > schema.maxProperties)
        fail(path, spath + '/maxProperties', 'must have at most ' + schema.maxProperties + ' properties');
      const props = schema.properties || {};
      const patterns = Object.keys(schema.patternProperties || {});
      for (const k of keys) {
        let known = false;
        if (k in props) {
          known = true;
          ok = sub(props[k], data[k], path + '/' + k, spath + '/properties/' + k) && ok;
        }
        for (const p of patterns) {
          if (new RegExp(p, 'u').test(k)) {
            known = true;
            ok =
              sub(schema.patternProperties[p], data[k], path + '/' + k, spath + '/patternProperties/' + p) &&
              ok;
          }
        }
        if (!known && schema.additionalProperties !== undefined) {
          if (schema.additionalProperties === false)
            fail(path + '/' + k, spath + '/additionalProperties', 'is not allowed');
          else
            ok =
              sub(schema.additionalProperties, data[k], path + '/' + k, spath + '/additionalProperties') &&
              ok;
        }
      }
    }
    const quiet = (s, sp) => {
      const before = errors.length;
      const r = check(s, data, path, sp, depth + 1);
      errors.length = before;
      return r;
    };
    (schema.allOf || []).forEach((s, i) => (ok = sub(s, data, path, spath + '/allOf/' + i) && ok));
    if (schema.anyOf && !schema.anyOf.some((s, i) => quiet(s, spath + '/anyOf/' + i)))
      fail(path, spath + '/anyOf', 'must match at least one schema of anyOf');
    if (schema.oneOf) {
      const n = schema.oneOf.filter((s, i) => quiet(s, spath + '/oneOf/' + i)).length;
      if (n !== 1) fail(path, spath + '/oneOf', 'must match exactly one schema of oneOf (matched ' + n + ')');
    }
    if (schema.not !== undefined && quiet(schema.not, spath + '/not'))
      fail(path, spath + '/not', 'must not match the schema of not');
    if (schema.if !== undefined) {
      if (quiet(schema.if, spath + '/if')) {
        if (schema.then !== undefined) ok = sub(schema.then, data, path, spath + '/then') && ok;
      } else if (schema.else !== undefined) ok = sub(schema.else, data, path, spath + '/else') && ok;
    }
    return ok;
  }
  const valid = check(root, params.data, '', '#', 0);
  return { valid, errorCount: errors.length, errors };
}
