/** Pearson correlation and the least-squares line y = slope * x + intercept of paired values. */
function run(params) {
  const x = params.x;
  const y = params.y;
  if (x.length !== y.length) throw new Error('x and y must have the same length');
  const mx = lib.mean(x);
  const my = lib.mean(y);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < x.length; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (sxx === 0) throw new Error('x has no variance');
  const slope = sxy / sxx;
  const r = syy === 0 ? null : sxy / Math.sqrt(sxx * syy);
  return {
    n: x.length,
    pearson: lib.round(r),
    rSquared: r === null ? null : lib.round(r * r),
    slope: lib.round(slope),
    intercept: lib.round(my - slope * mx),
  };
}
