/**
 * Lexicon-based sentiment (an AFINN-style word list scored -5..5): negation flips the next
 * words, intensifiers scale them, "but" weights the clause after it; per sentence and overall.
 */
function run(params) {
  const LEXICON = {
    good: 3,
    great: 3,
    excellent: 4,
    amazing: 4,
    awesome: 4,
    love: 3,
    loved: 3,
    like: 2,
    liked: 2,
    happy: 3,
    glad: 3,
    nice: 3,
    fast: 2,
    easy: 2,
    helpful: 2,
    friendly: 2,
    perfect: 3,
    best: 3,
    recommend: 2,
    fantastic: 4,
    works: 1,
    pleased: 3,
    smooth: 2,
    reliable: 2,
    clean: 2,
    beautiful: 3,
    wonderful: 4,
    impressive: 3,
    satisfied: 2,
    thanks: 2,
    bad: -3,
    terrible: -3,
    awful: -3,
    horrible: -3,
    hate: -3,
    hated: -3,
    slow: -2,
    broken: -2,
    bug: -2,
    buggy: -2,
    crash: -2,
    crashes: -2,
    error: -2,
    worst: -3,
    poor: -2,
    disappointed: -2,
    disappointing: -2,
    annoying: -2,
    angry: -3,
    useless: -2,
    expensive: -1,
    confusing: -2,
    difficult: -1,
    fail: -2,
    failed: -2,
    fails: -2,
    problem: -2,
    issue: -1,
    refund: -1,
    unacceptable: -3,
    rude: -2,
    waste: -2,
    sad: -2,
    unhappy: -2,
    frustrating: -2,
    lost: -1,
  };
  const NEGATIONS = [
    'not',
    "don't",
    'dont',
    "doesn't",
    'doesnt',
    "isn't",
    'isnt',
    'never',
    'no',
    "wasn't",
    'wasnt',
    "didn't",
    'didnt',
    'cannot',
    "can't",
    'cant',
  ];
  const INTENSIFIERS = {
    very: 1.5,
    really: 1.5,
    extremely: 2,
    so: 1.3,
    super: 1.5,
    quite: 1.2,
    slightly: 0.5,
    somewhat: 0.7,
  };
  const sentences = params.text.split(/(?<=[.!?])\s+/).filter((s) => s.trim());
  let total = 0;
  let words = 0;
  const positive = [];
  const negative = [];
  const perSentence = sentences.map((sentence) => {
    const tokens = sentence.toLowerCase().match(/[a-z']+/g) || [];
    let score = 0;
    let negate = 0;
    let scale = 1;
    let afterBut = false;
    for (const t of tokens) {
      words++;
      if (t === 'but') {
        score *= 0.5;
        afterBut = true;
        continue;
      }
      if (NEGATIONS.indexOf(t) >= 0) {
        negate = 3;
        continue;
      }
      if (INTENSIFIERS[t]) {
        scale = INTENSIFIERS[t];
        continue;
      }
      if (LEXICON[t] !== undefined) {
        let v = LEXICON[t] * scale * (afterBut ? 1.5 : 1);
        if (negate > 0) v = -v * 0.75;
        score += v;
        (v > 0 ? positive : negative).push(negate > 0 ? 'not ' + t : t);
      }
      scale = 1;
      if (negate > 0) negate--;
    }
    total += score;
    return { sentence: sentence.trim(), score: Math.round(score * 100) / 100 };
  });
  const comparative = words ? total / words : 0;
  const label = total > 1 ? 'positive' : total < -1 ? 'negative' : 'neutral';
  return {
    label,
    score: Math.round(total * 100) / 100,
    comparative: Math.round(comparative * 1000) / 1000,
    positive,
    negative,
    sentences: perSentence,
  };
}
