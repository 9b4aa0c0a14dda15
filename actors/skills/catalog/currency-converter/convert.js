/** Converts amounts between currencies with the given rates (per 1 unit of base). */
function run(params) {
  const base = params.base || 'USD';
  const results = params.amounts.map((a) => {
    const c = lib.convert(a.amount, a.from, params.to, params.rates, base);
    return {
      from: a.from,
      amount: a.amount,
      to: params.to,
      converted: c.amount,
      rate: Math.round(c.rate * 1e8) / 1e8,
    };
  });
  const total = lib.roundHalfEven(
    results.reduce((s, r) => s + r.converted, 0),
    lib.decimals(params.to),
  );
  return { base, to: params.to, results, total };
}
