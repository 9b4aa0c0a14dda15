/** Groups the rows of a CSV text by a column and computes count, sum, avg, min and max per group. */
function run(params) {
  const table = lib.records(params.csv, params.delimiter, true);
  if (params.groupBy) lib.requireColumn(table.columns, params.groupBy);
  for (const m of params.metrics) if (m.column) lib.requireColumn(table.columns, m.column);
  const groups = {};
  const order = [];
  for (const r of table.rows) {
    const key = params.groupBy ? String(r[params.groupBy]) : '*';
    if (!groups[key]) {
      groups[key] = [];
      order.push(key);
    }
    groups[key].push(r);
  }
  const round = (x) => Math.round(x * 1e6) / 1e6;
  const result = order.map((key) => {
    const rows = groups[key];
    const out = params.groupBy ? { [params.groupBy]: rows[0][params.groupBy] } : {};
    for (const m of params.metrics) {
      const name = m.as || (m.column ? m.fn + '_' + m.column : m.fn);
      if (m.fn === 'count') {
        out[name] = rows.length;
        continue;
      }
      const values = rows.map((r) => r[m.column]).filter((v) => typeof v === 'number');
      if (values.length === 0) {
        out[name] = null;
        continue;
      }
      const sum = values.reduce((a, b) => a + b, 0);
      out[name] =
        m.fn === 'sum'
          ? round(sum)
          : m.fn === 'avg'
            ? round(sum / values.length)
            : m.fn === 'min'
              ? Math.min.apply(null, values)
              : Math.max.apply(null, values);
    }
    return out;
  });
  return { groups: result.length, rows: result };
}
