import { z } from 'zod';
import type { SkillDocument, SkillInstallationDocument } from '../../schemas/documents/skill';
import { CapabilityNameSchema, SkillSlugSchema } from '../../schemas/documents/skill';
import { AppError, errors, isErrorCode } from '../../schemas/errors';
import { runAsPrincipal } from '../executions/execution-steps';
import type { StepContext, StepRunner } from '../executions/executions';
import { runCapability } from './capability-script';
import { skillHost, type HostRecord } from './skill-host';
import { checkUse, dependencyLibraries } from './skill-use-checks';
import { skillInstallationsCollection, skillsCollection } from './skills.collection';

/** The execution type of one use of a skill capability. */
export const SKILL_EXECUTION_TYPE = 'SKILL_EXECUTION';

/** The execution's input: which capability of which skill (its id pins the skill), and the params. */
export const SkillUseInputSchema = z.object({
  skillId: z.uuid(),
  slug: SkillSlugSchema,
  capability: CapabilityNameSchema,
  params: z.record(z.string(), z.unknown()),
});
export type SkillUseInput = z.infer<typeof SkillUseInputSchema>;

/** What the step reports as its output (never the params or the result: they may be large or private). */
export interface SkillUseOutput {
  durationMs: number;
  platformCalls: number;
}

/** The skill, the account's installation and those of the skill's dependencies, read fresh. */
async function load(ctx: StepContext<SkillUseInput>) {
  const documents = ctx.services.documents;
  const skill = await documents.repository(skillsCollection).findById(ctx.input.skillId);
  if (!skill || !skill.listed) throw errors.notFound(`Skill not found: ${ctx.input.slug}`);
  const slugs = [skill.slug, ...skill.dependencies.required, ...skill.dependencies.optional];
  const installations = await documents
    .repository(skillInstallationsCollection)
    .find({ accountId: ctx.execution.accountId, slug: { $in: slugs } }, { limit: 0 });
  const bySlug = new Map(installations.map((i) => [i.slug, i]));
  const depSlugs = slugs.slice(1);
  const deps =
    depSlugs.length === 0
      ? []
      : await documents
          .repository(skillsCollection)
          .find({ slug: { $in: depSlugs }, listed: true }, { limit: 0 });
  return {
    skill,
    installation: bySlug.get(skill.slug) ?? null,
    installed: bySlug as ReadonlyMap<string, SkillInstallationDocument>,
    dependencies: new Map(deps.map((d) => [d.slug, d])) as ReadonlyMap<string, SkillDocument>,
  };
}

/** How a run that did not return a value fails the step: the platform's own code when a call's refusal ended it. */
function failureOf(
  run: { outcome: string; message: string },
  record: HostRecord,
  signal: AbortSignal,
): AppError {
  if (signal.aborted && signal.reason instanceof AppError) return signal.reason;
  if (run.outcome === 'timeout')
    return errors.deadline(`The capability did not finish within 10 s: ${run.message}`);
  if (run.outcome === 'cancelled') return errors.unavailable(`The capability was stopped: ${run.message}`);
  if (run.message.startsWith('PlatformError') && record.lastError && isErrorCode(record.lastError.code)) {
    const code = record.lastError.code === 'INTERNAL_ERROR' ? 'SKILL_FAILED' : record.lastError.code;
    return new AppError(code, `The capability failed: ${record.lastError.message}`.slice(0, 1000));
  }
  return new AppError('SKILL_FAILED', `The capability failed: ${run.message}`.slice(0, 1000));
}

/**
 * `SKILL_EXECUTION` (sourceType `skill`): one step, one run of a capability in the sandbox with
 * the limits of `proc_execute` (10 s, params and result capped), on the worker that runs the step.
 * The checks of the use are made again at run time (a permission revoked since the request is
 * refused here too); platform calls go through the execution owner's agent (skill-host.ts).
 * The capability's result is the execution's result; a failure fails the execution with its
 * code (`SKILL_FAILED` for the capability's own errors). Logs say what ran and which platform
 * calls it made, never the params, the result or a secret.
 */
export const skillUseRunner: StepRunner<SkillUseInput> = {
  type: SKILL_EXECUTION_TYPE,
  input: SkillUseInputSchema,
  totalSteps: () => 1,
  stepName: (input) => `${input.slug}.${input.capability}`,
  // A run is at most 10 s; queueing for a sandbox thread and the platform calls' own deadlines on top.
  stepTimeoutMs: 60_000,
  async step(ctx) {
    const { skill, installation, installed, dependencies } = await load(ctx);
    const params = checkUse(
      { skill, installation, dependencies: installed },
      ctx.input.capability,
      ctx.input.params,
    );
    const sandbox = ctx.services.sandbox;
    if (!sandbox) throw errors.unavailable('The sandbox is not available on this node');
    const name = `${skill.slug}.${ctx.input.capability}`;
    await ctx.log('info', `Running ${name} (version ${skill.semver})`);
    const record: HostRecord = { calls: [] };
    const { principal } = runAsPrincipal(ctx.execution);
    const host = skillHost(
      ctx as StepContext<unknown>,
      { skill, installation: installation!, principal },
      record,
    );
    const run = await runCapability(sandbox, {
      skill: {
        slug: skill.slug,
        library: skill.library,
        capabilities: skill.capabilities.map((c) => ({ name: c.name, code: skill.code[c.name] ?? '' })),
      },
      capability: ctx.input.capability,
      params,
      dependencies: dependencyLibraries(skill, dependencies, installed),
      host,
      signal: ctx.signal,
      owner: principal.accountId ?? principal.agentId,
    });
    const calls =
      record.calls.length > 0
        ? ` (${record.calls.length} platform calls: ${[...new Set(record.calls)].join(', ')})`
        : '';
    await ctx.services.system
      .ask(
        `skills:${ctx.execution.accountId}`,
        'skills.recordUse',
        { skillId: skill._id, at: new Date().toISOString() },
        { auth: principal },
      )
      .catch((err: unknown) =>
        ctx.logger.warn({ err, skill: skill.slug }, 'skills: the use could not be recorded'),
      );
    if (!run.ok) {
      const failure = failureOf(run, record, ctx.signal);
      await ctx.log('error', `${name} failed after ${run.durationMs} ms${calls}: ${failure.code}`);
      throw failure;
    }
    await ctx.log('info', `${name} completed in ${run.durationMs} ms${calls}`);
    const output: SkillUseOutput = { durationMs: run.durationMs, platformCalls: record.calls.length };
    return { name, output, result: run.result, last: true };
  },
};
