import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadCatalog } from '../../actors/skills/catalog-loader';
import { SkillContentSchema, type SkillContent } from '../../actors/skills/skill-content';
import { skillsCollection } from '../../actors/skills/skills.collection';
import { SKILL_CATEGORIES } from '../../schemas/documents/skill';
import { startRuntime } from '../../src/boot/runtime';
import { loadConfig } from '../../src/config/load-config';
import { createLogger } from '../../src/logging/logger';
import { tell } from '../support/child-ipc';
import { stopWhenAsked } from '../support/runtime-child';

const WORDS =
  'fast json csv report audit parse extract convert secure cloud text data web mail invoice chart'.split(' ');
const pick = <T>(list: readonly T[], i: number) => list[i % list.length];

/** `n` generated skills beside the seed catalog: names, categories and descriptions vary; one small capability each. */
function generated(n: number): SkillContent[] {
  return Array.from({ length: n }, (_, i) =>
    SkillContentSchema.parse({
      skill_id: randomUUID(),
      slug: `bench-skill-${String(i).padStart(4, '0')}`,
      name: `${pick(WORDS, i)} ${pick(WORDS, i * 7 + 3)} tool ${i}`,
      category: pick(SKILL_CATEGORIES, i * 5),
      version: `1.${i % 10}.0`,
      author: 'platform',
      description: `Generated skill ${i}: ${pick(WORDS, i * 3)} and ${pick(WORDS, i * 11 + 1)} for the benchmark of the listing.`,
      capabilities: [
        {
          name: 'run_it',
          description: 'Echoes its input.',
          mutating: false,
          code: 'function run(params) { return params; }',
          paramsSchema: {
            type: 'object',
            properties: { x: { type: 'number' } },
            additionalProperties: false,
          },
        },
      ],
      example: { capability: 'run_it', params: { x: 1 }, output: { x: 1 } },
    }),
  );
}

/**
 * The service for `bench:skills` (embedded document store in the process, in-process transport),
 * its catalog filled to BENCH_SKILLS skills (the seed catalog and generated ones) with varied
 * install counts and ratings, so every sort has real work. IPC: `{event: 'ready', url, skills}`;
 * stops on `{cmd: 'stop'}`.
 */
async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-bench-skills-'));
  const total = Number(process.env.BENCH_SKILLS ?? 1000);
  const seed = loadCatalog();
  const catalog = [...seed, ...generated(Math.max(0, total - seed.length))];
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dir,
    PORT: '0',
    LOG_LEVEL: 'error',
    JWT_SECRET: randomBytes(24).toString('hex'),
  });
  const runtime = await startRuntime(config, createLogger({ level: 'error' }), { skills: { catalog } });
  const skills = runtime.documents.repository(skillsCollection);
  await skills.raw.bulkWrite(
    catalog.map((s, i) => ({
      updateOne: {
        filter: { _id: s.skill_id },
        update: {
          $set: {
            installCount: (i * 7919) % 5000,
            activeInstalls: (i * 7919) % 3000,
            ...(i % 3 === 0
              ? { rating: 1 + ((i * 13) % 40) / 10, ratingCount: 1 + (i % 50), ratingSum: 0 }
              : {}),
            publishedAt: new Date(Date.now() - ((i * 104729) % 1_000_000_000)),
          },
        },
      },
    })),
  );
  stopWhenAsked(runtime, dir, 'declared');
  await tell({ event: 'ready', url: runtime.http!.url, skills: await skills.count({ listed: true }) });
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
