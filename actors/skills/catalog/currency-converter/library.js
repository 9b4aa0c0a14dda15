/**
 * Currency arithmetic on rates the caller gives (units of each currency per one unit of `base`),
 * in integer minor units so that sums do not drift, rounded half-even (banker's rounding).
 */
function library() {
  const MINOR = { JPY: 0, KRW: 0, CLP: 0, ISK: 0, VND: 0, BHD: 3, KWD: 3, OMR: 3, JOD: 3, TND: 3 };
  const decimals = (code) => (code in MINOR ? MINOR[code] : 2);
  function roundHalfEven(x, d) {
    const f = Math.pow(10, d);
    const n = x * f;
    const floor = Math.floor(n);
    const r = Math.abs(n - floor - 0.5) < 1e-7 ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(n);
    return r / f + 0;
  }
  function rateOf(rates, base, code) {
    if (code === base) return 1;
    const r = rates[code];
    if (typeof r !== 'number' || !(r > 0))
      throw new Error('No rate for ' + code + ' (rates are per 1 ' + base + ')');
    return r;
  }
  function convert(amount, from, to, rates, base) {
    const inBase = amount / rateOf(rates, base, from);
    const raw = inBase * rateOf(rates, base, to);
    return {
      amount: roundHalfEven(raw, decimals(to)),
      rate: rateOf(rates, base, to) / rateOf(rates, base, from),
    };
  }
  return { convert, roundHalfEven, decimals };
}
