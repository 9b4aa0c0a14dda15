import { SkillContentSchema, type SkillContent } from '../../../../actors/skills/skill-content';

/** A skill whose capability keeps the sandbox busy for `ms` (panic and deadline tests). */
export const SLOW_SKILL: SkillContent = SkillContentSchema.parse({
  skill_id: '7d0c5e4a-2b1f-4c3d-9e8f-0a1b2c3d4e5f',
  slug: 'slow-loop',
  name: 'Slow loop',
  category: 'Utilities',
  version: '1.0.0',
  author: 'platform',
  description: 'Busy-waits for the given milliseconds (tests).',
  capabilities: [
    {
      name: 'spin',
      description: 'Spins for ms milliseconds.',
      mutating: false,
      code: 'function run(params) {\n  const end = Date.now() + params.ms;\n  while (Date.now() < end) {}\n  return { spun: params.ms };\n}\n',
      paramsSchema: {
        type: 'object',
        properties: { ms: { type: 'integer', minimum: 0, maximum: 60000 } },
        required: ['ms'],
        additionalProperties: false,
      },
    },
  ],
  example: { capability: 'spin', params: { ms: 1 }, output: { spun: 1 } },
});
