import type { Principal } from '../../schemas/auth';
import type { SkillDocument } from '../../schemas/documents/skill';
import type { Services } from '../../src/boot/services';
import type { ToolAgent } from '../tools/router/tool-declaration';
import type { ExternalTool, ExternalToolEntry, ExternalToolResolver } from '../tools/router/tool-registry';
import type { SkillCatalog } from './skill-catalog';
import { toolNameOf } from './skill-views';
import { USE_WAIT_MS, useSkill } from './skill-use';
import { skillInstallationsCollection, skillsCollection } from './skills.collection';

const SKILL_TOOL = /^platform\.skill\.([a-z0-9][a-z0-9_-]{0,63})\.([a-z0-9][a-z0-9_-]{0,63})$/;

/** `platform.skill.<slug>.<capability>` → its parts; undefined for any other name. */
export function parseSkillToolName(name: string): { slug: string; capability: string } | undefined {
  const m = SKILL_TOOL.exec(name);
  return m ? { slug: m[1], capability: m[2] } : undefined;
}

/** The route records of a skill tool's own call name the skill (`related.skills`). */
export function skillOfTool(name: string): string | undefined {
  return parseSkillToolName(name)?.slug;
}

/**
 * The tool router's hook for skills (`services.toolRouter.resolvers.skill`, docs/skills.md,
 * "Skills as tools"): the capabilities of the skills an agent's account has installed are tools
 * `platform.skill.<slug>.<capability>`, listed with their params schema (active installations)
 * and callable through `POST /mcp` like any tool. A call is a use: the same checks (a disabled
 * installation or a revoked permission is 403) and a SKILL_EXECUTION created as the caller.
 * Agents without an account (self-registered) have no skills.
 */
export function createSkillTools(
  services: Pick<Services, 'documents' | 'system' | 'executions'>,
  catalog: SkillCatalog,
): ExternalToolResolver {
  const skills = services.documents.repository(skillsCollection);
  const installations = services.documents.repository(skillInstallationsCollection);
  // Waiting for the execution, plus the router's own margin for queueing.
  const maxDurationMs = USE_WAIT_MS + 5_000;

  function toolOf(skill: SkillDocument, capability: string): ExternalTool | undefined {
    const declared = skill.capabilities.find((c) => c.name === capability);
    if (!declared) return undefined;
    return {
      source: 'skill',
      mutating: declared.mutating,
      maxDurationMs,
      run: async (input, ctx) => {
        const caller = { ...ctx.principal, accountId: ctx.agent.accountId! } as Principal & {
          accountId: string;
        };
        const used = await useSkill(services, catalog, caller, {
          skill_slug: skill.slug,
          capability,
          params: input,
        });
        return used.result;
      },
    };
  }

  return {
    maxDurationMs,
    async resolve(name: string, agent: ToolAgent): Promise<ExternalTool | undefined> {
      const parsed = parseSkillToolName(name);
      if (!parsed || !agent.accountId) return undefined;
      const skill = await skills.findOne({ slug: parsed.slug, listed: true });
      if (!skill) return undefined;
      const installation = await installations.findOne({ accountId: agent.accountId, skillId: skill._id });
      // Not installed (or removed): no such tool for this agent. Disabled ones resolve, and the use says why not.
      if (!installation || installation.status === 'removed') return undefined;
      return toolOf(skill, parsed.capability);
    },
    async list(agent: ToolAgent): Promise<readonly ExternalToolEntry[]> {
      if (!agent.accountId) return [];
      const active = await installations.find({ accountId: agent.accountId, status: 'active' }, { limit: 0 });
      if (active.length === 0) return [];
      const docs = await skills.find(
        { _id: { $in: active.map((i) => i.skillId) }, listed: true },
        { limit: 0 },
      );
      return docs.flatMap((skill) =>
        skill.capabilities.map((c) => ({
          name: toolNameOf(skill.slug, c.name),
          description: `${skill.name}: ${c.description}`.slice(0, 1000),
          inputSchema: { ...(skill.paramsSchemas[c.name] ?? {}), type: 'object' as const },
          readOnly: !c.mutating,
        })),
      );
    },
  };
}
