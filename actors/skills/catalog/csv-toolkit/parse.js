/** CSV text to records: the header row names the columns; numbers and booleans are typed. */
function run(params) {
  const table = lib.records(params.csv, params.delimiter, params.typed);
  return { columns: table.columns, rowCount: table.rows.length, rows: table.rows };
}
