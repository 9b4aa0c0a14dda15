/** Count, sum, mean, median, mode, min, max, range, variance and standard deviation, quartiles and percentiles. */
function run(params) {
  const values = params.values;
  const sorted = values.slice().sort((a, b) => a - b);
  const counts = {};
  let best = 0;
  for (const v of values) {
    counts[v] = (counts[v] || 0) + 1;
    best = Math.max(best, counts[v]);
  }
  const modes =
    best > 1
      ? Object.keys(counts)
          .filter((k) => counts[k] === best)
          .map(Number)
          .sort((a, b) => a - b)
      : [];
  const sample = params.sample !== false;
  const variance = lib.variance(values, sample);
  const percentiles = {};
  for (const p of params.percentiles || [90, 95, 99])
    percentiles['p' + p] = lib.round(lib.quantile(sorted, p / 100));
  return {
    count: values.length,
    sum: lib.round(values.reduce((a, b) => a + b, 0)),
    mean: lib.round(lib.mean(values)),
    median: lib.round(lib.quantile(sorted, 0.5)),
    modes,
    min: sorted[0],
    max: sorted[sorted.length - 1],
    range: lib.round(sorted[sorted.length - 1] - sorted[0]),
    variance: lib.round(variance),
    stddev: variance === null ? null : lib.round(Math.sqrt(variance)),
    quartiles: { q1: lib.round(lib.quantile(sorted, 0.25)), q3: lib.round(lib.quantile(sorted, 0.75)) },
    percentiles,
  };
}
