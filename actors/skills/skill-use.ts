import { lastValueFrom, takeWhile } from 'rxjs';
import type { Principal } from '../../schemas/auth';
import { AppError, isErrorCode } from '../../schemas/errors';
import type { ExecutionView, LogView } from '../../schemas/http/executions';
import type { UseSkillBody } from '../../schemas/http/skills';
import type { ExecutionEvent } from '../../schemas/messages/executions';
import type { Services } from '../../src/boot/services';
import { executionView } from '../executions/execution-views';
import { newExecutionId } from '../executions/executions';
import type { SkillCatalog } from './skill-catalog';
import { checkUse } from './skill-use-checks';
import { SKILL_EXECUTION_TYPE, type SkillUseInput, type SkillUseOutput } from './skill-use.runner';
import { skillInstallationsCollection } from './skills.collection';

/** What a use answers (`POST /api/skills/use`). */
export interface UseResult {
  success: true;
  result: unknown;
  /** The capability's run in the sandbox (queueing excluded), in ms. */
  execution_time_ms: number;
  /** The SKILL_EXECUTION that ran it, with its logs. */
  execution: ExecutionView & { logs: LogView[] };
}

/** Longest a use is waited for: the run (10 s), a sandbox thread's queue and the platform calls. */
export const USE_WAIT_MS = 90_000;

/**
 * One use of a capability (docs/skills.md, "Using"): the checks, in order, each with its own error
 * (unknown skill 404; not installed, not active, a required permission or dependency missing 403;
 * unknown capability 400; params invalid 400), then a `SKILL_EXECUTION` created as the caller
 * (so the executions routes, recovery and panic see it) and followed to its end. A failure after
 * the execution was created is the failure's error with `success: false`, `execution_time_ms`
 * and `execution`.
 */
export async function useSkill(
  services: Pick<Services, 'system' | 'documents' | 'executions'>,
  catalog: SkillCatalog,
  caller: Principal & { accountId: string },
  body: UseSkillBody,
): Promise<UseResult> {
  const skill = await catalog.get(body.skill_slug);
  const slugs = [skill.slug, ...skill.dependencies.required, ...skill.dependencies.optional];
  const installations = await services.documents
    .repository(skillInstallationsCollection)
    .find({ accountId: caller.accountId, slug: { $in: slugs } }, { limit: 0 });
  const bySlug = new Map(installations.map((i) => [i.slug, i]));
  checkUse(
    { skill, installation: bySlug.get(skill.slug) ?? null, dependencies: bySlug },
    body.capability,
    body.params,
  );

  const id = newExecutionId();
  const input: SkillUseInput = {
    skillId: skill._id,
    slug: skill.slug,
    capability: body.capability,
    params: body.params,
  };
  await services.system.ask(
    `execution:${id}`,
    'execution.create',
    {
      type: SKILL_EXECUTION_TYPE,
      title: `${skill.slug}.${body.capability}`,
      sourceType: 'skill',
      skillSlug: skill.slug,
      input,
    },
    { auth: caller },
  );
  // The watch answers the current state, then each change, and completes after `done`; a pause
  // (by someone, meanwhile) ends the wait too.
  await lastValueFrom(
    services.system
      .stream<ExecutionEvent>(
        `execution:${id}`,
        'execution.watch',
        {},
        { auth: caller, timeoutMs: USE_WAIT_MS },
      )
      .pipe(takeWhile((e) => !(e.type === 'execution' && e.execution.status === 'PAUSED'), true)),
    { defaultValue: undefined },
  );
  const doc = await services.executions.queries.get(caller.accountId, id);
  const execution = { ...executionView(doc), logs: await services.executions.logs.tail(id, 100) };
  const execution_time_ms = (doc.steps[0]?.output as SkillUseOutput | undefined)?.durationMs ?? 0;
  if (doc.status === 'COMPLETED') {
    return { success: true, result: doc.result ?? null, execution_time_ms, execution };
  }
  const failure = doc.failure;
  const code = failure && isErrorCode(failure.code) ? failure.code : failure ? 'SKILL_FAILED' : 'CONFLICT';
  const message = failure
    ? failure.message
    : `The execution is ${doc.status}${doc.stopped?.action === 'panic' ? ' (stopped by panic)' : ''}`;
  throw new AppError(code, message, { success: false, execution_time_ms, execution });
}
