/**
 * Line diff of two texts (longest common subsequence over lines, trimmed of common ends first),
 * as operations, unified-diff hunks with `context` lines around changes, and counts.
 */
function run(params) {
  const split = (t) => (t === '' ? [] : t.replace(/\r\n/g, '\n').split('\n'));
  const norm = (l) => (params.ignoreWhitespace ? l.replace(/\s+/g, ' ').trim() : l);
  const a = split(params.a);
  const b = split(params.b);
  if (a.length * b.length > 4000000)
    throw new Error('The texts are too long to compare (at most 2000 x 2000 lines)');
  let start = 0;
  while (start < a.length && start < b.length && norm(a[start]) === norm(b[start])) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && norm(a[endA - 1]) === norm(b[endB - 1])) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  const table = [];
  for (let i = 0; i <= n; i++) table.push(new Int32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i][j] =
        norm(a[start + i]) === norm(b[start + j])
          ? table[i + 1][j + 1] + 1
          : Math.max(table[i + 1][j], table[i][j + 1]);
    }
  }
  const ops = [];
  for (let i = 0; i < start; i++) ops.push({ op: 'equal', a: i + 1, b: i + 1, text: a[i] });
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && norm(a[start + i]) === norm(b[start + j])) {
      ops.push({ op: 'equal', a: start + i + 1, b: start + j + 1, text: a[start + i] });
      i++;
      j++;
    } else if (i < n && (j === m || table[i + 1][j] >= table[i][j + 1])) {
      ops.push({ op: 'delete', a: start + i + 1, text: a[start + i] });
      i++;
    } else {
      ops.push({ op: 'insert', b: start + j + 1, text: b[start + j] });
      j++;
    }
  }
  for (let k = 0; k < a.length - endA; k++)
    ops.push({ op: 'equal', a: endA + k + 1, b: endB + k + 1, text: a[endA + k] });

  const context = params.context === undefined ? 3 : params.context;
  const hunks = [];
  let k = 0;
  while (k < ops.length) {
    if (ops[k].op === 'equal') {
      k++;
      continue;
    }
    const from = Math.max(0, k - context);
    let to = k;
    while (to < ops.length) {
      if (ops[to].op !== 'equal') {
        to++;
        continue;
      }
      let run = 0;
      while (to + run < ops.length && ops[to + run].op === 'equal') run++;
      if (to + run >= ops.length || run > context * 2) {
        to = Math.min(ops.length, to + context);
        break;
      }
      to += run;
    }
    const slice = ops.slice(from, to);
    let aStart = 0;
    let bStart = 0;
    for (let q = from; q >= 0 && (aStart === 0 || bStart === 0); q--) {
      if (aStart === 0 && ops[q].a !== undefined) aStart = ops[q].a + (q < from ? 1 : 0);
      if (bStart === 0 && ops[q].b !== undefined) bStart = ops[q].b + (q < from ? 1 : 0);
    }
    const aLen = slice.filter((o) => o.op !== 'insert').length;
    const bLen = slice.filter((o) => o.op !== 'delete').length;
    const header =
      '@@ -' +
      (aLen ? aStart || 1 : aStart) +
      ',' +
      aLen +
      ' +' +
      (bLen ? bStart || 1 : bStart) +
      ',' +
      bLen +
      ' @@';
    const lines = slice.map((o) => (o.op === 'equal' ? ' ' : o.op === 'insert' ? '+' : '-') + o.text);
    hunks.push({ header, lines });
    k = to;
  }
  const added = ops.filter((o) => o.op === 'insert').length;
  const removed = ops.filter((o) => o.op === 'delete').length;
  const unified = hunks.map((h) => h.header + '\n' + h.lines.join('\n')).join('\n');
  return {
    identical: added === 0 && removed === 0,
    added,
    removed,
    unchanged: ops.length - added - removed,
    hunks,
    unified,
    ...(params.includeOperations ? { operations: ops } : {}),
  };
}
