/**
 * Totals an invoice: line amounts, percentage and fixed discounts, tax per rate, and, when a
 * target currency and rates are given, the totals converted with the currency-converter library.
 */
function run(params) {
  const cc = deps['currency-converter'];
  const dec = cc.decimals(params.currency);
  const r = (x) => cc.roundHalfEven(x, dec);
  const lines = params.lines.map((l) => {
    const gross = l.quantity * l.unitPrice;
    const discount = l.discountPercent ? (gross * l.discountPercent) / 100 : 0;
    const net = r(gross - discount);
    const taxRate = l.taxRate === undefined ? params.defaultTaxRate || 0 : l.taxRate;
    return {
      description: l.description,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      discount: r(discount),
      net,
      taxRate,
    };
  });
  const subtotal = r(lines.reduce((s, l) => s + l.net, 0));
  const invoiceDiscount = r(Math.min(subtotal, params.discount || 0));
  const share = subtotal > 0 ? (subtotal - invoiceDiscount) / subtotal : 0;
  const taxes = {};
  for (const l of lines) {
    const key = String(l.taxRate);
    taxes[key] = (taxes[key] || 0) + (l.net * share * l.taxRate) / 100;
  }
  const taxLines = Object.keys(taxes)
    .filter((k) => Number(k) > 0)
    .sort((a, b) => Number(a) - Number(b))
    .map((k) => ({ rate: Number(k), amount: r(taxes[k]) }));
  const tax = r(taxLines.reduce((s, t) => s + t.amount, 0));
  const total = r(subtotal - invoiceDiscount + tax);
  const out = {
    currency: params.currency,
    lines,
    subtotal,
    discount: invoiceDiscount,
    taxes: taxLines,
    tax,
    total,
  };
  if (params.convertTo) {
    const base = params.base || 'USD';
    out.converted = {
      currency: params.convertTo,
      total: cc.convert(total, params.currency, params.convertTo, params.rates || {}, base).amount,
      tax: cc.convert(tax, params.currency, params.convertTo, params.rates || {}, base).amount,
    };
  }
  return out;
}
