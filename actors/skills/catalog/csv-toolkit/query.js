/** Filters, orders, projects and limits the rows of a CSV text. */
function run(params) {
  const table = lib.records(params.csv, params.delimiter, true);
  const where = params.where || [];
  for (const w of where) lib.requireColumn(table.columns, w.column);
  let rows = table.rows.filter((r) => lib.matches(r, where));
  const matched = rows.length;
  if (params.orderBy) {
    lib.requireColumn(table.columns, params.orderBy.column);
    const sign = params.orderBy.direction === 'desc' ? -1 : 1;
    const col = params.orderBy.column;
    rows = rows.slice().sort((a, b) => sign * lib.compare(a[col], b[col]));
  }
  const select = params.select && params.select.length > 0 ? params.select : table.columns;
  for (const c of select) lib.requireColumn(table.columns, c);
  rows = rows.slice(0, params.limit === undefined ? 1000 : params.limit).map((r) => {
    const o = {};
    for (const c of select) o[c] = r[c];
    return o;
  });
  return { columns: select, matched, rows };
}
