import { mostSimilar } from './similarity';
import { extractUrls, weightedLength, X_MAX_WEIGHTED_LENGTH } from './x-text';

export type GuardrailStatus = 'pass' | 'review' | 'block';

/** The configurable part of the guardrails (SOCIAL_* variables). */
export interface GuardrailPolicy {
  dailyCap: number;
  similarityReview: number;
  similarityBlock: number;
  blockedWords: readonly string[];
  blockedTopics: readonly string[];
  blockedDomains: readonly string[];
}

/** What a draft is checked against: the account's recent posts and other queued drafts, today's count. */
export interface GuardrailContext {
  /** Texts of the account's recent published posts and of its other drafts awaiting publication. */
  recentTexts: readonly string[];
  /** Posts of the account published (or, at drafting, queued) for today, UTC. */
  postsToday: number;
  /**
   * `draft`: the daily cap reached is a `review` (the post may go out another day); `publish`: a
   * `block` (it would exceed the cap now).
   */
  stage: 'draft' | 'publish';
}

export interface GuardrailVerdict {
  guardrail_status: GuardrailStatus;
  guardrail_reasons: string[];
  /** Highest similarity to a recent post or queued draft, 0..1. */
  similarity_score: number;
  weighted_length: number;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whole-word (or whole-phrase) match, case-insensitive, letters of any script. */
function mentions(text: string, phrase: string): boolean {
  const words = phrase.split(/\s+/).filter(Boolean).map(escape).join('\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}])${words}(?![\\p{L}\\p{N}])`, 'iu').test(text);
}

function hostOf(url: string): { host: string; https: boolean } | undefined {
  try {
    const parsed = new URL(/^https?:\/\//i.test(url) ? url : `https://${url}`);
    return { host: parsed.hostname.toLowerCase(), https: parsed.protocol === 'https:' };
  } catch {
    return undefined;
  }
}

/**
 * The guardrails of a draft (docs/social.md, "Guardrails"), run when it is created and again just
 * before it is published. `block` when it cannot go out at all (too long, a blocked word, topic or
 * link domain, a link that is not https, a near-copy above the block threshold, the daily cap
 * reached at publication); `review` when a person should look (similar to a recent post or
 * queued draft above the review threshold, the daily cap already reached at drafting); `pass` otherwise. Each finding is one reason.
 */
export function checkGuardrails(
  text: string,
  context: GuardrailContext,
  policy: GuardrailPolicy,
): GuardrailVerdict {
  const block: string[] = [];
  const review: string[] = [];
  const length = weightedLength(text);
  if (length > X_MAX_WEIGHTED_LENGTH) {
    block.push(`too long: ${length} of ${X_MAX_WEIGHTED_LENGTH} characters as X counts them`);
  }
  for (const word of policy.blockedWords) {
    if (mentions(text, word)) block.push(`blocked word: ${word}`);
  }
  for (const topic of policy.blockedTopics) {
    if (mentions(text, topic)) block.push(`blocked topic: ${topic}`);
  }
  for (const url of extractUrls(text)) {
    const target = hostOf(url);
    if (!target) {
      block.push(`link not understood: ${url.slice(0, 100)}`);
      continue;
    }
    if (!target.https) block.push(`link is not https: ${url.slice(0, 100)}`);
    const blocked = policy.blockedDomains.find((d) => target.host === d || target.host.endsWith(`.${d}`));
    if (blocked) block.push(`link to a blocked domain: ${target.host}`);
  }
  const { score } = mostSimilar(text, context.recentTexts);
  if (score >= policy.similarityBlock) {
    block.push(`near-duplicate of a recent post or queued draft (similarity ${score.toFixed(2)})`);
  } else if (score >= policy.similarityReview) {
    review.push(`similar to a recent post or queued draft (similarity ${score.toFixed(2)})`);
  }
  if (context.postsToday >= policy.dailyCap) {
    (context.stage === 'publish' ? block : review).push(
      `daily cap reached: ${context.postsToday} of ${policy.dailyCap} posts today (UTC)`,
    );
  }
  const status: GuardrailStatus = block.length > 0 ? 'block' : review.length > 0 ? 'review' : 'pass';
  return {
    guardrail_status: status,
    guardrail_reasons: [...block, ...review],
    similarity_score: score,
    weighted_length: length,
  };
}
