import { z } from 'zod';
import { InstallSkillBodySchema, PatchInstallationBodySchema, RateSkillBodySchema } from '../http/skills';

/**
 * Messages of the `skills` actor (`skills:<accountId>`, docs/skills.md): the changes to one
 * account's installations, one at a time per account (an install and its dependencies, a change of
 * status or permissions, the record of a use). Reads go to the documents directly.
 */

export const SkillsInstallMessageSchema = InstallSkillBodySchema;
export const SkillsUpdateInstallationMessageSchema = PatchInstallationBodySchema.and(
  z.object({ skill: z.string().min(1).max(100) }),
);
/** A use ran (the SKILL_EXECUTION step): `lastUsedAt` and the counters. */
export const SkillsRecordUseMessageSchema = z.object({ skillId: z.uuid(), at: z.iso.datetime() });
/** The account rates a skill it installed (1-5; again replaces its rating). */
export const SkillsRateMessageSchema = RateSkillBodySchema.extend({ skill: z.string().min(1).max(100) });
