import { performance } from 'node:perf_hooks';
import { TokenService } from '../../actors/identity/token-service';
import { MemoryCache } from '../../src/store/cache';

/**
 * Micro-benchmark of `TokenService.verify`, the check `POST /mcp` makes on every request:
 *
 * - **first sight**: a token never verified by this process (signature, decoding, the sealed
 *   claims opened, the schema), each of `COLD` tokens once, after a warm-up;
 * - **known token**: the same token again (what a client sending its key with every request
 *   costs: the remembered claims, the expiry and the revocation list).
 *
 * Run: `node -r ./test/support/ts-register.js bench/identity/token-verify.ts` (or after
 * `npm run build`, `node dist/bench/identity/token-verify.js`). Prints one JSON line; figures and
 * the before/after comparison are in bench/results/token-verify.md. A quick smoke, not a load test.
 */

const COLD = Number(process.env.BENCH_COLD ?? 4000);
const WARM = Number(process.env.BENCH_WARM ?? 200_000);

async function main(): Promise<void> {
  const tokens = new TokenService('b'.repeat(48), new MemoryCache());
  const issue = (i: number) =>
    tokens.issue({
      sub: `agt_${i.toString(16).padStart(24, '0')}`,
      typ: 'agent',
      acc: 'acc_0123456789abcdef',
    }).token;

  // Warm-up: JIT, key objects, the schema.
  for (let i = 0; i < 2000; i++) tokens.check(issue(i));

  // First sight: fresh tokens (a new service per batch keeps the remembered set from filling up).
  const fresh = Array.from({ length: COLD }, (_, i) => issue(10_000 + i));
  const coldService = new TokenService('b'.repeat(48), new MemoryCache());
  let start = performance.now();
  for (const token of fresh) coldService.check(token);
  const coldUs = ((performance.now() - start) * 1000) / COLD;

  const known = issue(1);
  tokens.check(known);
  start = performance.now();
  for (let i = 0; i < WARM; i++) tokens.check(known);
  const warmUs = ((performance.now() - start) * 1000) / WARM;

  const issueStart = performance.now();
  for (let i = 0; i < COLD; i++) issue(20_000 + i);
  const issueUs = ((performance.now() - issueStart) * 1000) / COLD;

  console.log(
    JSON.stringify({
      node: process.version,
      firstSightUs: Number(coldUs.toFixed(2)),
      knownTokenUs: Number(warmUs.toFixed(3)),
      issueUs: Number(issueUs.toFixed(2)),
      tokenBytes: known.length,
    }),
  );
}

void main();
