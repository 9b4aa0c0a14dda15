/** Flattens a JSON document into dotted paths and leaf values (`a.b[0].c`). */
function run(params) {
  const data = params.data !== undefined ? params.data : JSON.parse(params.json);
  const out = {};
  let count = 0;
  const walk = (value, path) => {
    if (count >= 10000) throw new Error('More than 10000 leaves');
    if (value !== null && typeof value === 'object') {
      const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
      if (keys.length === 0) {
        out[path || '$'] = Array.isArray(value) ? [] : {};
        count += 1;
      }
      for (const k of keys)
        walk(value[k], Array.isArray(value) ? path + '[' + k + ']' : path ? path + '.' + k : String(k));
    } else {
      out[path || '$'] = value;
      count += 1;
    }
  };
  walk(data, '');
  return { leaves: count, paths: out };
}
