import { z } from 'zod';
import {
  InstallationViewSchema,
  InstallSkillBodySchema,
  ListSkillsQuerySchema,
  PatchInstallationBodySchema,
  PublishSkillBodySchema,
  RateSkillBodySchema,
  SkillDetailSchema,
  SkillListResponseSchema,
  SkillRefParamsSchema,
  SkillSummarySchema,
  UseSkillBodySchema,
} from '../../schemas/http/skills';
import { defineContracts } from '../../src/http/openapi/contract';

/** An answer whose full shape is in docs/skills.md; the named fields are always there. */
const described = (shape: z.ZodRawShape = {}) => z.looseObject(shape);

/** skills.route.ts, installations.route.ts, publishing.route.ts, developers.route.ts. */
export const skillContracts = defineContracts('Skill store', [
  {
    method: 'get',
    path: '/api/skills',
    summary: 'The skill catalog: search, category, author, sort, pages',
    auth: 'none',
    query: ListSkillsQuerySchema,
    responses: { 200: SkillListResponseSchema },
  },
  {
    method: 'get',
    path: '/api/skills/discovery',
    summary: 'Rows of skills (popular, featured, recent…), categories and the caller’s installed slugs',
    auth: 'optional',
    responses: {
      200: described({ skills: z.array(SkillSummarySchema), installedSlugs: z.array(z.string()) }),
    },
  },
  {
    method: 'get',
    path: '/api/skills/:id/preview',
    summary: 'A skill with its params schemas and examples of a use (HTTP and MCP)',
    auth: 'none',
    params: SkillRefParamsSchema,
    responses: { 200: z.object({ skill: SkillDetailSchema, preview: described() }) },
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/skills',
    summary: 'Publish a skill or a new version (enterprise accounts)',
    auth: 'sb',
    body: PublishSkillBodySchema,
    responses: { 200: described(), 201: described() },
    errors: [409],
    idempotent: true,
  },
  {
    method: 'post',
    path: '/api/skills/install',
    summary: 'Install a skill (and its required dependencies), approving its permissions',
    auth: 'sb',
    body: InstallSkillBodySchema,
    bodyExample: { slug: 'ip-calculator' },
    responses: { 200: described(), 201: described() },
    errors: [404, 409],
    idempotent: true,
  },
  {
    method: 'post',
    path: '/api/skills/use',
    summary: 'Run a capability of an installed skill (recorded as an execution)',
    auth: 'sb',
    body: UseSkillBodySchema,
    bodyExample: { skill_slug: 'ip-calculator', capability: 'cidr', params: { cidr: '10.0.0.0/24' } },
    responses: {
      200: described({ success: z.literal(true), result: z.unknown(), execution_time_ms: z.number() }),
    },
    errors: [404, 409, 502, 504],
    idempotent: true,
  },
  {
    method: 'post',
    path: '/api/skills/:id/rating',
    summary: 'Rate an installed skill (1 to 5 stars)',
    auth: 'sb',
    params: SkillRefParamsSchema,
    body: RateSkillBodySchema,
    responses: { 200: described() },
    errors: [404, 409],
    idempotent: true,
  },
  {
    method: 'get',
    path: '/api/skills/installed',
    summary: "The account's installed skills",
    auth: 'sb',
    responses: { 200: z.object({ installed_skills: z.array(InstallationViewSchema) }) },
  },
  {
    method: 'patch',
    path: '/api/skills/:id/installation',
    summary: 'Enable, disable or change the approved permissions of an installation',
    auth: 'sb',
    params: SkillRefParamsSchema,
    body: PatchInstallationBodySchema,
    responses: { 200: described() },
    errors: [404, 409],
    idempotent: true,
  },
  {
    method: 'get',
    path: '/api/developers/:handle',
    summary: "A developer's public profile with its skills and apps",
    auth: 'none',
    responses: { 200: described() },
    errors: [404],
  },
]);
