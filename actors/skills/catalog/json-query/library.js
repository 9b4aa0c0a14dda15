/**
 * A JSONPath subset: `$`, `.name`, `['name']`, `[n]` (negative from the end), `[*]`, `.*`,
 * `..name` (recursive descent), `[a:b]` slices and filters `[?(@.field op value)]` with
 * ==, !=, <, <=, >, >= against a number, a quoted string, true, false or null, or `[?(@.field)]`.
 */
function library() {
  function tokenize(path) {
    if (path[0] !== '$') throw new Error('A path starts with $');
    const tokens = [];
    let i = 1;
    while (i < path.length) {
      if (path.startsWith('..', i)) {
        i += 2;
        const m = /^(\*|[A-Za-z_$][\w$-]*)/.exec(path.slice(i));
        if (!m) throw new Error('Expected a name after .. at ' + i);
        tokens.push({ kind: 'descend', name: m[1] });
        i += m[1].length;
      } else if (path[i] === '.') {
        i += 1;
        const m = /^(\*|[A-Za-z_$][\w$-]*)/.exec(path.slice(i));
        if (!m) throw new Error('Expected a name after . at ' + i);
        tokens.push(m[1] === '*' ? { kind: 'wildcard' } : { kind: 'name', name: m[1] });
        i += m[1].length;
      } else if (path[i] === '[') {
        const end = path.indexOf(']', i);
        if (end < 0) throw new Error('Unclosed [ at ' + i);
        const inner = path.slice(i + 1, end).trim();
        i = end + 1;
        let m;
        if (inner === '*') tokens.push({ kind: 'wildcard' });
        else if (/^-?\d+$/.test(inner)) tokens.push({ kind: 'index', index: Number(inner) });
        else if ((m = /^(-?\d*):(-?\d*)$/.exec(inner)))
          tokens.push({
            kind: 'slice',
            from: m[1] === '' ? null : Number(m[1]),
            to: m[2] === '' ? null : Number(m[2]),
          });
        else if ((m = /^'((?:[^'\\]|\\.)*)'$|^"((?:[^"\\]|\\.)*)"$/.exec(inner)))
          tokens.push({ kind: 'name', name: m[1] !== undefined ? m[1] : m[2] });
        else if ((m = /^\?\(@\.([\w$-]+)(?:\s*(==|!=|<=|>=|<|>)\s*(.+))?\)$/.exec(inner)))
          tokens.push({
            kind: 'filter',
            field: m[1],
            op: m[2],
            value: m[3] === undefined ? undefined : literal(m[3].trim()),
          });
        else throw new Error('Unsupported selector [' + inner + ']');
      } else {
        throw new Error('Unexpected character ' + path[i] + ' at ' + i);
      }
    }
    return tokens;
  }

  function literal(text) {
    if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
    if (text === 'true' || text === 'false') return text === 'true';
    if (text === 'null') return null;
    const m = /^'(.*)'$|^"(.*)"$/.exec(text);
    if (m) return m[1] !== undefined ? m[1] : m[2];
    throw new Error('Unsupported value in filter: ' + text);
  }

  const isObject = (v) => v !== null && typeof v === 'object';
  const children = (v) => (Array.isArray(v) ? v : isObject(v) ? Object.keys(v).map((k) => v[k]) : []);

  function test(item, token) {
    if (!isObject(item) || !(token.field in item)) return false;
    const a = item[token.field];
    const b = token.value;
    switch (token.op) {
      case undefined:
        return a !== null && a !== false && a !== undefined;
      case '==':
        return a === b;
      case '!=':
        return a !== b;
      case '<':
        return a < b;
      case '<=':
        return a <= b;
      case '>':
        return a > b;
      default:
        return a >= b;
    }
  }

  function step(values, token) {
    const out = [];
    for (const v of values) {
      if (token.kind === 'name') {
        if (isObject(v) && !Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, token.name))
          out.push(v[token.name]);
      } else if (token.kind === 'wildcard') {
        out.push.apply(out, children(v));
      } else if (token.kind === 'index') {
        if (Array.isArray(v)) {
          const k = token.index < 0 ? v.length + token.index : token.index;
          if (k >= 0 && k < v.length) out.push(v[k]);
        }
      } else if (token.kind === 'slice') {
        if (Array.isArray(v))
          out.push.apply(
            out,
            v.slice(token.from === null ? 0 : token.from, token.to === null ? v.length : token.to),
          );
      } else if (token.kind === 'filter') {
        for (const c of children(v)) if (test(c, token)) out.push(c);
      } else {
        const stack = [v];
        while (stack.length > 0) {
          const cur = stack.shift();
          if (isObject(cur)) {
            if (token.name === '*') out.push.apply(out, children(cur));
            else if (!Array.isArray(cur) && Object.prototype.hasOwnProperty.call(cur, token.name))
              out.push(cur[token.name]);
            stack.push.apply(stack, children(cur));
          }
        }
      }
    }
    return out;
  }

  function query(data, path) {
    return tokenize(path).reduce((values, token) => step(values, token), [data]);
  }

  return { query, tokenize };
}
