/** The next runs (UTC, ISO 8601) of a cron expression after a given time, and a reading of it. */
function run(params) {
  const c = lib.parse(params.expression);
  const from = params.from ? new Date(params.from) : new Date();
  if (isNaN(from.getTime())) throw new Error('from is not a date: ' + params.from);
  const runs = lib.next(c, from, params.count || 5);
  return {
    expression: params.expression,
    description: lib.describe(params.expression),
    from: from.toISOString(),
    runs,
  };
}
