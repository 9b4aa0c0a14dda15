import { PrincipalSchema, type Principal } from '../../schemas/auth';
import { errors } from '../../schemas/errors';
import {
  SkillsInstallMessageSchema,
  SkillsRateMessageSchema,
  SkillsRecordUseMessageSchema,
  SkillsUpdateInstallationMessageSchema,
} from '../../schemas/messages/skills';
import { defineActor, type ActorContext } from '../../src/kernel/actor-definition';
import type { SkillInstaller } from './skill-installer';

/** The caller must act for the account the actor stands for (another's is refused). */
function callerOf(ctx: ActorContext<undefined>): Principal {
  const parsed = PrincipalSchema.safeParse(ctx.auth);
  if (!parsed.success) throw errors.unauthorized();
  if (parsed.data.accountId !== ctx.id) throw errors.forbidden('Not allowed for this account');
  return parsed.data;
}

/**
 * `skills:<accountId>`: one account's installations (docs/skills.md). Installs (with their
 * dependencies), changes of status and permissions, and the record of uses run here one at a
 * time, so two requests of the account never interleave their checks and writes; every write is
 * also conditional (a unique index per account and skill, versions), so a second node holding the
 * same actor cannot make two installations either.
 */
export const skillsActor = (installer: SkillInstaller) =>
  defineActor({
    kind: 'skills',
    messages: {
      'skills.install': SkillsInstallMessageSchema,
      'skills.updateInstallation': SkillsUpdateInstallationMessageSchema,
      'skills.recordUse': SkillsRecordUseMessageSchema,
      'skills.rate': SkillsRateMessageSchema,
    },
    handlers: {
      'skills.install': (ctx, body) => installer.install(ctx.id, callerOf(ctx), body),
      'skills.updateInstallation': (ctx, { skill, ...body }) => {
        callerOf(ctx);
        return installer.update(ctx.id, skill, body);
      },
      'skills.rate': (ctx, { skill, stars }) => {
        callerOf(ctx);
        return installer.rate(ctx.id, skill, stars);
      },
      'skills.recordUse': async (ctx, { skillId, at }) => {
        callerOf(ctx);
        await installer.recordUse(ctx.id, skillId, new Date(at));
        return { recorded: true };
      },
    },
  });
