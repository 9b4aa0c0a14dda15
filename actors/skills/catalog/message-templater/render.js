/**
 * Renders a template with data: `{{path.to.value}}` (HTML-escaped unless `escape` is false),
 * `{{{raw}}}`, `{{value | upper}}` filters (upper, lower, title, trim, json, default:"x"),
 * sections `{{#items}}…{{/items}}` over arrays (with `{{.}}`, `{{@index}}`) or truthy values, and
 * inverted sections `{{^items}}…{{/items}}`. Missing values are reported.
 */
function run(params) {
  const missing = [];
  const esc = (s) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const lookup = (stack, path) => {
    if (path === '.') return stack[stack.length - 1];
    const parts = path.split('.');
    for (let i = stack.length - 1; i >= 0; i--) {
      let v = stack[i];
      if (v !== null && typeof v === 'object' && parts[0] in v) {
        for (const p of parts) v = v === null || v === undefined ? undefined : v[p];
        return v;
      }
    }
    return undefined;
  };
  const FILTERS = {
    upper: (v) => String(v).toUpperCase(),
    lower: (v) => String(v).toLowerCase(),
    trim: (v) => String(v).trim(),
    title: (v) => String(v).replace(/\b\w/g, (c) => c.toUpperCase()),
    json: (v) => JSON.stringify(v),
  };
  const value = (stack, expr) => {
    const pieces = expr.split('|').map((s) => s.trim());
    let v = lookup(stack, pieces[0]);
    for (const f of pieces.slice(1)) {
      const d = /^default:\s*"([^"]*)"$/.exec(f);
      if (d) v = v === undefined || v === null || v === '' ? d[1] : v;
      else if (FILTERS[f]) v = v === undefined || v === null ? v : FILTERS[f](v);
      else throw new Error('Unknown filter: ' + f);
    }
    if (v === undefined || v === null) {
      if (missing.indexOf(pieces[0]) < 0) missing.push(pieces[0]);
      return '';
    }
    return typeof v === 'object' ? JSON.stringify(v) : String(v);
  };
  const render = (template, stack, depth) => {
    if (depth > 20) throw new Error('Sections nested deeper than 20');
    let out = '';
    let i = 0;
    const open = /\{\{\{\s*([^}]+?)\s*\}\}\}|\{\{\s*([#^/]?)\s*([^}]+?)\s*\}\}/g;
    let m;
    while ((m = open.exec(template))) {
      out += template.slice(i, m.index);
      i = open.lastIndex;
      if (m[1] !== undefined) {
        out += value(stack, m[1]);
        continue;
      }
      const kind = m[2];
      const name = m[3];
      if (kind === '/') throw new Error('Unexpected {{/' + name + '}}');
      if (kind === '#' || kind === '^') {
        let level = 1;
        const tag = new RegExp(
          '\\{\\{\\s*([#^/])\\s*' + name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '\\s*\\}\\}',
          'g',
        );
        tag.lastIndex = i;
        let t;
        let end = -1;
        while ((t = tag.exec(template))) {
          level += t[1] === '/' ? -1 : 1;
          if (level === 0) {
            end = t.index;
            break;
          }
        }
        if (end < 0) throw new Error('Unclosed section {{' + kind + name + '}}');
        const inner = template.slice(i, end);
        i = tag.lastIndex;
        open.lastIndex = i;
        const v = lookup(stack, name);
        const truthy = Array.isArray(v) ? v.length > 0 : !!v;
        if (kind === '^') {
          if (!truthy) out += render(inner, stack, depth + 1);
        } else if (Array.isArray(v)) {
          v.forEach((item, index) => {
            out += render(
              inner,
              stack.concat([
                { '@index': index, '@first': index === 0, '@last': index === v.length - 1 },
                item,
              ]),
              depth + 1,
            );
          });
        } else if (truthy) {
          out += render(inner, typeof v === 'object' ? stack.concat([v]) : stack, depth + 1);
        }
        continue;
      }
      const text = value(stack, name);
      out += params.escape === false ? text : esc(text);
    }
    return out + template.slice(i);
  };
  const output = render(params.template, [params.data || {}], 0);
  if (params.strict && missing.length > 0) throw new Error('Missing values: ' + missing.join(', '));
  return { output, missing, length: output.length };
}
