/** IBAN checks: country lengths (the SWIFT registry), mod-97 check digits, formatting. */
function library() {
  const LENGTHS = {
    AD: 24,
    AE: 23,
    AL: 28,
    AT: 20,
    AZ: 28,
    BA: 20,
    BE: 16,
    BG: 22,
    BH: 22,
    BR: 29,
    BY: 28,
    CH: 21,
    CR: 22,
    CY: 28,
    CZ: 24,
    DE: 22,
    DK: 18,
    DO: 28,
    EE: 20,
    EG: 29,
    ES: 24,
    FI: 18,
    FO: 18,
    FR: 27,
    GB: 22,
    GE: 22,
    GI: 23,
    GL: 18,
    GR: 27,
    GT: 28,
    HR: 21,
    HU: 28,
    IE: 22,
    IL: 23,
    IQ: 23,
    IS: 26,
    IT: 27,
    JO: 30,
    KW: 30,
    KZ: 20,
    LB: 28,
    LC: 32,
    LI: 21,
    LT: 20,
    LU: 20,
    LV: 21,
    MC: 27,
    MD: 24,
    ME: 22,
    MK: 19,
    MR: 27,
    MT: 31,
    MU: 30,
    NL: 18,
    NO: 15,
    PK: 24,
    PL: 28,
    PS: 29,
    PT: 25,
    QA: 29,
    RO: 24,
    RS: 22,
    SA: 24,
    SC: 31,
    SE: 24,
    SI: 19,
    SK: 24,
    SM: 27,
    ST: 25,
    SV: 28,
    TL: 23,
    TN: 24,
    TR: 26,
    UA: 29,
    VA: 22,
    VG: 24,
    XK: 20,
  };
  function mod97(s) {
    let r = 0;
    for (const ch of s) {
      const v = ch >= 'A' && ch <= 'Z' ? String(ch.charCodeAt(0) - 55) : ch;
      for (const d of v) r = (r * 10 + Number(d)) % 97;
    }
    return r;
  }
  function check(input) {
    const iban = String(input).replace(/[\s-]/g, '').toUpperCase();
    const country = iban.slice(0, 2);
    const result = {
      input: String(input),
      iban,
      valid: false,
      country,
      checkDigits: iban.slice(2, 4),
      bban: iban.slice(4),
    };
    if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return Object.assign(result, { reason: 'malformed' });
    if (!LENGTHS[country]) return Object.assign(result, { reason: 'unknown_country' });
    if (iban.length !== LENGTHS[country]) {
      return Object.assign(result, { reason: 'wrong_length', expectedLength: LENGTHS[country] });
    }
    if (mod97(iban.slice(4) + iban.slice(0, 4)) !== 1)
      return Object.assign(result, { reason: 'bad_check_digits' });
    return Object.assign(result, { valid: true, formatted: iban.replace(/(.{4})/g, '$1 ').trim() });
  }
  return { check, LENGTHS };
}
