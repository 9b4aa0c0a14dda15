/**
 * CSV parsing (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes) and the
 * helpers the capabilities share: typed values, row filters and ordering.
 */
function library() {
  function parseCsv(text, delimiter) {
    const rows = [];
    let row = [];
    let field = '';
    let quoted = false;
    let i = 0;
    const d = delimiter || ',';
    while (i < text.length) {
      const c = text[i];
      if (quoted) {
        if (c === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          quoted = false;
          i += 1;
          continue;
        }
        field += c;
        i += 1;
        continue;
      }
      if (c === '"' && field === '') {
        quoted = true;
      } else if (c === d) {
        row.push(field);
        field = '';
      } else if (c === '\n' || c === '\r') {
        row.push(field);
        rows.push(row);
        row = [];
        field = '';
        if (c === '\r' && text[i + 1] === '\n') i += 1;
      } else {
        field += c;
      }
      i += 1;
    }
    if (quoted) throw new Error('Unterminated quoted field');
    if (field !== '' || row.length > 0) {
      row.push(field);
      rows.push(row);
    }
    return rows.filter((r) => !(r.length === 1 && r[0] === ''));
  }

  function typed(value) {
    const v = value.trim();
    if (v === '') return null;
    if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v)) return Number(v);
    if (v === 'true' || v === 'false') return v === 'true';
    return value;
  }

  function records(text, delimiter, typedValues) {
    const rows = parseCsv(text, delimiter);
    if (rows.length === 0) return { columns: [], rows: [] };
    const columns = rows[0].map((c) => c.trim());
    const seen = {};
    for (const c of columns) {
      if (seen[c]) throw new Error('Duplicate column: ' + c);
      seen[c] = true;
    }
    const out = rows.slice(1).map((r, n) => {
      if (r.length !== columns.length) {
        throw new Error('Row ' + (n + 2) + ' has ' + r.length + ' fields, expected ' + columns.length);
      }
      const o = {};
      columns.forEach((c, k) => {
        o[c] = typedValues === false ? r[k] : typed(r[k]);
      });
      return o;
    });
    return { columns, rows: out };
  }

  function requireColumn(columns, name) {
    if (columns.indexOf(name) < 0) throw new Error('Unknown column: ' + name);
  }

  const OPS = {
    eq: (a, b) => a === b,
    ne: (a, b) => a !== b,
    gt: (a, b) => a !== null && a > b,
    gte: (a, b) => a !== null && a >= b,
    lt: (a, b) => a !== null && a < b,
    lte: (a, b) => a !== null && a <= b,
    contains: (a, b) =>
      String(a === null ? '' : a)
        .toLowerCase()
        .indexOf(String(b).toLowerCase()) >= 0,
    in: (a, b) => Array.isArray(b) && b.indexOf(a) >= 0,
  };

  function matches(row, where) {
    return where.every((w) => OPS[w.op](row[w.column], w.value));
  }

  function compare(a, b) {
    if (a === b) return 0;
    if (a === null) return 1;
    if (b === null) return -1;
    return a < b ? -1 : 1;
  }

  return { parseCsv, records, requireColumn, matches, compare, OPS };
}
