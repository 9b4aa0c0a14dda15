/**
 * Converts between units of length, mass, volume, area, time, speed, data (decimal and binary
 * prefixes), pressure, energy and temperature (affine). Units of different dimensions are refused.
 */
function run(params) {
  const U = {
    length: {
      m: 1,
      km: 1000,
      cm: 0.01,
      mm: 0.001,
      um: 1e-6,
      nm: 1e-9,
      mi: 1609.344,
      yd: 0.9144,
      ft: 0.3048,
      in: 0.0254,
      nmi: 1852,
    },
    mass: { kg: 1, g: 0.001, mg: 1e-6, t: 1000, lb: 0.45359237, oz: 0.028349523125, st: 6.35029318 },
    volume: {
      l: 1,
      ml: 0.001,
      m3: 1000,
      cl: 0.01,
      gal: 3.785411784,
      qt: 0.946352946,
      pt: 0.473176473,
      cup: 0.2365882365,
      floz: 0.0295735295625,
      ukgal: 4.54609,
    },
    area: {
      m2: 1,
      km2: 1e6,
      cm2: 1e-4,
      ha: 1e4,
      acre: 4046.8564224,
      ft2: 0.09290304,
      in2: 0.00064516,
      mi2: 2589988.110336,
    },
    time: { s: 1, ms: 0.001, min: 60, h: 3600, d: 86400, wk: 604800, yr: 31557600 },
    speed: { 'm/s': 1, 'km/h': 1 / 3.6, mph: 0.44704, kn: 0.514444444, 'ft/s': 0.3048 },
    data: {
      b: 1,
      kb: 1e3,
      mb: 1e6,
      gb: 1e9,
      tb: 1e12,
      kib: 1024,
      mib: 1048576,
      gib: 1073741824,
      tib: 1099511627776,
      bit: 0.125,
    },
    pressure: { pa: 1, kpa: 1000, bar: 1e5, atm: 101325, psi: 6894.757293168, mmhg: 133.322387415 },
    energy: { j: 1, kj: 1000, cal: 4.184, kcal: 4184, wh: 3600, kwh: 3.6e6, btu: 1055.05585262 },
  };
  const TEMPERATURE = {
    c: { toK: (v) => v + 273.15, fromK: (k) => k - 273.15 },
    f: { toK: (v) => ((v - 32) * 5) / 9 + 273.15, fromK: (k) => ((k - 273.15) * 9) / 5 + 32 },
    k: { toK: (v) => v, fromK: (k) => k },
  };
  const key = (u) => u.trim().toLowerCase().replace(/²/g, '2').replace(/³/g, '3').replace(/°/g, '');
  const dimensionOf = (u) => {
    if (TEMPERATURE[u]) return 'temperature';
    for (const d of Object.keys(U)) if (U[d][u] !== undefined) return d;
    return null;
  };
  const from = key(params.from);
  const to = key(params.to);
  const df = dimensionOf(from);
  const dt = dimensionOf(to);
  if (!df) throw new Error('Unknown unit: ' + params.from);
  if (!dt) throw new Error('Unknown unit: ' + params.to);
  if (df !== dt)
    throw new Error('Cannot convert ' + df + ' (' + params.from + ') to ' + dt + ' (' + params.to + ')');
  const precision = params.precision === undefined ? 6 : params.precision;
  const round = (x) =>
    Number(
      x.toPrecision(
        Math.max(1, Math.min(15, precision + Math.max(1, Math.ceil(Math.log10(Math.abs(x) + 1))))),
      ),
    );
  const values = (params.values || [params.value]).map((v) => {
    const out =
      df === 'temperature' ? TEMPERATURE[to].fromK(TEMPERATURE[from].toK(v)) : (v * U[df][from]) / U[df][to];
    return { value: v, result: round(out) };
  });
  return {
    dimension: df,
    from: params.from,
    to: params.to,
    factor: df === 'temperature' ? null : round(U[df][from] / U[df][to]),
    conversions: values,
  };
}
