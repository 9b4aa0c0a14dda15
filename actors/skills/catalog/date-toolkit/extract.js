/** Dates written in a text (ISO, numeric day-first or month-first, written month names), checked against the calendar. */
function run(params) {
  const dates = lib.extract(params.text, params.numericOrder || 'dmy');
  return { count: dates.length, valid: dates.filter((d) => d.valid).length, dates };
}
