/** Descriptive statistics of numbers: sorted copies, quantiles by linear interpolation. */
function library() {
  const round = (x) => (x === null ? null : Math.round(x * 1e9) / 1e9);
  function quantile(sorted, q) {
    if (sorted.length === 0) return null;
    const pos = (sorted.length - 1) * q;
    const lo = Math.floor(pos);
    const hi = Math.ceil(pos);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
  }
  function mean(values) {
    return values.reduce((a, b) => a + b, 0) / values.length;
  }
  function variance(values, sample) {
    if (values.length < (sample ? 2 : 1)) return null;
    const m = mean(values);
    return values.reduce((a, v) => a + (v - m) * (v - m), 0) / (values.length - (sample ? 1 : 0));
  }
  return { round, quantile, mean, variance };
}
