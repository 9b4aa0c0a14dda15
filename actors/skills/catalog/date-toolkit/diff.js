/** The time between two UTC dates: total days, hours, minutes, whole calendar years, months and days, and business days. */
function run(params) {
  const a = lib.parseIso(params.from);
  const b = lib.parseIso(params.to);
  const sign = b >= a ? 1 : -1;
  const [x, y] = sign > 0 ? [a, b] : [b, a];
  let months = (y.getUTCFullYear() - x.getUTCFullYear()) * 12 + (y.getUTCMonth() - x.getUTCMonth());
  if (y.getUTCDate() < x.getUTCDate()) months--;
  const anchor = new Date(Date.UTC(x.getUTCFullYear(), x.getUTCMonth() + months, 1));
  anchor.setUTCDate(Math.min(x.getUTCDate(), lib.daysIn(anchor.getUTCFullYear(), anchor.getUTCMonth() + 1)));
  const days = Math.floor(
    (Date.UTC(y.getUTCFullYear(), y.getUTCMonth(), y.getUTCDate()) - anchor.getTime()) / 86400000,
  );
  let business = 0;
  const cur = new Date(Date.UTC(x.getUTCFullYear(), x.getUTCMonth(), x.getUTCDate()));
  const end = Date.UTC(y.getUTCFullYear(), y.getUTCMonth(), y.getUTCDate());
  let guard = 0;
  while (cur.getTime() < end && guard++ < 400000) {
    cur.setUTCDate(cur.getUTCDate() + 1);
    const wd = cur.getUTCDay();
    if (wd !== 0 && wd !== 6) business++;
  }
  const ms = y.getTime() - x.getTime();
  return {
    sign,
    totalDays: Math.round((ms / 86400000) * 1000) / 1000,
    totalHours: Math.round((ms / 3600000) * 1000) / 1000,
    totalMinutes: Math.round(ms / 60000),
    calendar: { years: Math.floor(months / 12), months: months % 12, days },
    businessDays: business,
  };
}
