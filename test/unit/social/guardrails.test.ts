import { checkGuardrails, type GuardrailPolicy } from '../../../actors/social/guardrails';

const policy: GuardrailPolicy = {
  dailyCap: 3,
  similarityReview: 0.6,
  similarityBlock: 0.9,
  blockedWords: ['darn'],
  blockedTopics: ['crypto giveaway'],
  blockedDomains: ['bad.example'],
};
const ctx = { recentTexts: [] as string[], postsToday: 0, stage: 'draft' as const };

describe('checkGuardrails', () => {
  it('passes a plain post with a https link', () => {
    const v = checkGuardrails('Our docs moved: https://docs.example.com/start', ctx, policy);
    expect(v).toMatchObject({ guardrail_status: 'pass', guardrail_reasons: [], similarity_score: 0 });
    expect(v.weighted_length).toBe(16 + 23);
  });

  it('asks for review of a post similar to a recent one, and blocks a near-copy', () => {
    const recent = ['We just shipped version 2 of the runtime, with faster tool calls'];
    const similar = checkGuardrails(
      'We just shipped version 2 of our runtime: faster tool calls and more',
      { ...ctx, recentTexts: recent },
      policy,
    );
    expect(similar.guardrail_status).toBe('review');
    expect(similar.similarity_score).toBeGreaterThanOrEqual(0.6);
    expect(similar.guardrail_reasons[0]).toMatch(/^similar to a recent post/);
    const copy = checkGuardrails(`${recent[0]}!`, { ...ctx, recentTexts: recent }, policy);
    expect(copy.guardrail_status).toBe('block');
    expect(copy.guardrail_reasons[0]).toMatch(/^near-duplicate/);
  });

  it('blocks words and topics (whole words, any case), not substrings', () => {
    expect(checkGuardrails('Well DARN it', ctx, policy).guardrail_reasons).toEqual(['blocked word: darn']);
    expect(checkGuardrails('darnation is fine', ctx, policy).guardrail_status).toBe('pass');
    expect(checkGuardrails('Join our Crypto  Giveaway now', ctx, policy).guardrail_reasons).toEqual([
      'blocked topic: crypto giveaway',
    ]);
  });

  it('blocks links to blocked domains (and their subdomains) and plain-http links', () => {
    const v = checkGuardrails('see https://www.bad.example/x and http://ok.example.com', ctx, policy);
    expect(v.guardrail_status).toBe('block');
    expect(v.guardrail_reasons).toEqual([
      'link to a blocked domain: www.bad.example',
      'link is not https: http://ok.example.com',
    ]);
  });

  it('blocks a post over 280 weighted characters', () => {
    const v = checkGuardrails('日'.repeat(141), ctx, policy);
    expect(v.guardrail_status).toBe('block');
    expect(v.guardrail_reasons[0]).toBe('too long: 282 of 280 characters as X counts them');
    expect(checkGuardrails('日'.repeat(140), ctx, policy).guardrail_status).toBe('pass');
  });

  it('treats the daily cap as review at drafting and block at publication', () => {
    expect(checkGuardrails('hello', { ...ctx, postsToday: 3 }, policy).guardrail_status).toBe('review');
    const atPublish = checkGuardrails('hello', { ...ctx, postsToday: 3, stage: 'publish' }, policy);
    expect(atPublish.guardrail_status).toBe('block');
    expect(atPublish.guardrail_reasons).toEqual(['daily cap reached: 3 of 3 posts today (UTC)']);
    expect(
      checkGuardrails('hello', { ...ctx, postsToday: 2, stage: 'publish' }, policy).guardrail_status,
    ).toBe('pass');
  });
});
