/** Adds an amount of a unit (calendar months clamp to the month's last day; business days skip weekends) to a UTC date. */
function run(params) {
  const d = lib.parseIso(params.date);
  const n = params.amount;
  const out = new Date(d.getTime());
  const unit = params.unit;
  if (unit === 'days') out.setUTCDate(out.getUTCDate() + n);
  else if (unit === 'weeks') out.setUTCDate(out.getUTCDate() + 7 * n);
  else if (unit === 'hours') out.setTime(out.getTime() + n * 3600000);
  else if (unit === 'minutes') out.setTime(out.getTime() + n * 60000);
  else if (unit === 'months' || unit === 'years') {
    const months = unit === 'years' ? 12 * n : n;
    const day = out.getUTCDate();
    out.setUTCDate(1);
    out.setUTCMonth(out.getUTCMonth() + months);
    out.setUTCDate(Math.min(day, lib.daysIn(out.getUTCFullYear(), out.getUTCMonth() + 1)));
  } else {
    let left = Math.abs(n);
    const step = n < 0 ? -1 : 1;
    while (left > 0) {
      out.setUTCDate(out.getUTCDate() + step);
      const wd = out.getUTCDay();
      if (wd !== 0 && wd !== 6) left--;
    }
  }
  return {
    from: d.toISOString(),
    amount: n,
    unit,
    result: out.toISOString(),
    weekday: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][out.getUTCDay()],
  };
}
