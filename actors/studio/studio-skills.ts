import type { Principal } from '../../schemas/auth';
import type { InstallSkillBody } from '../../schemas/http/skills';
import type { StudioEnv, StudioReply } from './studio-commands';

type Caller = Principal & { accountId: string };

/**
 * A Studio command that is not one tool call: what it would do (`preview`, shown with the
 * confirmToken of a mutating command) and the work itself (`run`).
 */
export interface ActionPlan {
  readonly kind: 'action';
  readonly mutating: boolean;
  readonly preview: unknown;
  readonly snippet: string;
  run(): Promise<StudioReply>;
}

/** `skills search <q>`: the store's listing, searched (name, slug, description), most installed first. */
export async function searchSkills(env: StudioEnv, query: string): Promise<StudioReply> {
  const { skills, pagination } = await env.services.skills.catalog.list({
    search: query,
    sort: 'popular',
    page: 1,
    limit: 10,
  });
  return {
    kind: 'result',
    summary: `${pagination.total} skill${pagination.total === 1 ? '' : 's'} match "${query.slice(0, 100)}"`,
    result: {
      total: pagination.total,
      skills: skills.map((s) => ({
        slug: s.slug,
        name: s.name,
        category: s.category,
        description: s.description,
        installs: s.installs,
        permissions_required: s.permissions_required,
        capabilities: s.capabilities.map((c) => c.name),
      })),
    },
    snippet: `GET /api/skills?search=${encodeURIComponent(query)}`,
  };
}

/**
 * `skills install <slug>`: mutating. The preview names the permissions it needs and the skills it
 * brings in; confirming approves those permissions and installs the dependencies first, through
 * the account's `skills` actor (as `POST /api/skills/install`).
 */
export async function skillInstallPlan(env: StudioEnv, principal: Caller, slug: string): Promise<ActionPlan> {
  const skill = await env.services.skills.catalog.get(slug);
  const body: InstallSkillBody = {
    slug,
    permissionsApproved: [...skill.permissions_required],
    installDependencies: true,
    optionalDependencies: [],
  };
  return {
    kind: 'action',
    mutating: true,
    preview: {
      skill: { slug: skill.slug, name: skill.name, version: skill.semver, author: skill.author },
      permissionsApproved: body.permissionsApproved,
      requiredSecrets: skill.required_secrets,
      dependencies: skill.dependencies.required,
    },
    snippet: `POST /api/skills/install ${JSON.stringify({ slug, permissionsApproved: body.permissionsApproved })}`,
    run: async () => {
      const installed = await env.system.ask<{
        dependenciesInstalled: Array<{ slug: string }>;
        installation: unknown;
      }>(`skills:${principal.accountId}`, 'skills.install', body, { auth: principal });
      const deps = installed.dependenciesInstalled.map((d) => d.slug);
      return {
        kind: 'result',
        summary: `${slug} installed${deps.length > 0 ? ` with ${deps.join(', ')}` : ''}`,
        result: {
          installation: installed.installation,
          dependenciesInstalled: installed.dependenciesInstalled,
        },
        snippet: `POST /api/skills/install ${JSON.stringify({ slug, permissionsApproved: body.permissionsApproved })}`,
      };
    },
  };
}

/**
 * `skills use <slug> <capability> --json {…}`: a use (`POST /api/skills/use`, a SKILL_EXECUTION).
 * Mutating when the capability is (read-only ones run at once).
 */
export async function skillUsePlan(
  env: StudioEnv,
  principal: Caller,
  command: { slug: string; capability: string; input: Record<string, unknown> },
): Promise<ActionPlan> {
  const skill = await env.services.skills.catalog.get(command.slug);
  const capability = skill.capabilities.find((c) => c.name === command.capability);
  const body = { skill_slug: command.slug, capability: command.capability, params: command.input };
  const snippet = `POST /api/skills/use ${JSON.stringify(body)}`;
  return {
    kind: 'action',
    mutating: capability?.mutating ?? true,
    preview: { skill: command.slug, capability: command.capability, params: command.input, mutating: true },
    snippet,
    run: async () => {
      const used = await env.services.skills.use(principal, body);
      return {
        kind: 'result',
        summary: `${command.slug}.${command.capability} ran in ${used.execution_time_ms} ms`,
        result: used.result,
        snippet,
        execution: { id: used.execution.id, status: used.execution.status },
      };
    },
  };
}
