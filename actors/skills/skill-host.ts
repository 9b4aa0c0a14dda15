import { createHmac } from 'node:crypto';
import { z } from 'zod';
import type { Principal } from '../../schemas/auth';
import type {
  SkillDocument,
  SkillInstallationDocument,
  SkillPermission,
} from '../../schemas/documents/skill';
import { SecretNameSchema } from '../../schemas/documents/skill';
import { errors } from '../../schemas/errors';
import type { GrantConsumeReply, RuntimeAuth } from '../../schemas/messages/vault';
import { isBuiltinPrimitive, PLATFORM_PREFIX } from '../../schemas/tools/primitives';
import type { HostCalls } from '../../src/sandbox';
import type { StepContext } from '../executions/executions';

/** Families of built-in primitives a capability may call, by their permission. */
const FAMILIES: ReadonlySet<string> = new Set(['mem', 'net', 'fs', 'db', 'events']);

/** `secret.hmac`: a MAC under a vault secret, computed here; the value never enters the sandbox. */
const SecretHmacInputSchema = z.object({
  secret: SecretNameSchema,
  message: z.string().max(1024 * 1024),
  algorithm: z.enum(['sha256', 'sha512', 'sha1']).default('sha256'),
  encoding: z.enum(['hex', 'base64']).default('hex'),
});

/** What the host saw during one use (for the execution's log and its failure). */
export interface HostRecord {
  /** Names of the calls made, in order. */
  readonly calls: string[];
  /** The last call the host refused or that failed: its code, when the capability did not catch it. */
  lastError?: { code: string; message: string };
}

/**
 * The platform calls a capability may make during one use (`platform.call(name, input)`,
 * docs/skills.md, "Platform calls"): the built-in primitives of the families its skill declares
 * and the installation approved (`mem_*`, `net_*`, `fs_*`, `db_*`, `events_*`), connector tools
 * (`mcp.<server>.<tool>`, permission `mcp`), each through the same agent tool path as `/mcp`
 * (`ctx.callTool`: allowedTools, allowedDomains, panic lockdown, rate limit, route records with
 * `invokedByType: 'skill'` and `related.skills`); and `secret.hmac` for a secret the skill
 * declares, taken from a vault runtime grant consumed here. Anything else is refused.
 */
export function skillHost(
  ctx: StepContext<unknown>,
  use: { skill: SkillDocument; installation: SkillInstallationDocument; principal: Principal },
  record: HostRecord,
): HostCalls {
  const { skill, installation, principal } = use;
  const related = { apps: [], workflows: [], skills: [skill.slug] };
  const allowed = (permission: SkillPermission) =>
    skill.permissions_required.includes(permission) && installation.permissionsApproved.includes(permission);

  const refuse = (message: string) => errors.forbidden(message, { skill: skill.slug });

  async function secretHmac(raw: unknown): Promise<unknown> {
    const parsed = SecretHmacInputSchema.safeParse(raw);
    if (!parsed.success)
      throw errors.validation('secret.hmac takes {secret, message, algorithm?, encoding?}');
    const { secret, message, algorithm, encoding } = parsed.data;
    if (!skill.required_secrets.includes(secret)) {
      throw refuse(`${skill.slug} does not declare the secret ${secret} in required_secrets`);
    }
    const { accountId, workspaceId } = ctx.execution;
    const access = await ctx.services.system.ask<{ grant: { id: string } }>(
      `vault:${accountId}`,
      'vault.access',
      {
        action: 'runtime',
        workspaceId,
        secretName: secret,
        subjectType: 'skill',
        subjectId: skill.slug,
        ttlSeconds: 30,
      },
      { auth: principal },
    );
    const runtime: RuntimeAuth = {
      subjectType: 'runtime',
      via: 'skill_runtime',
      accountId,
      credentialId: 'skill-runtime',
      scopes: ['vault:consume'],
      workspaceId,
    };
    const consumed = await ctx.services.system.ask<GrantConsumeReply>(
      `vault-grant:${access.grant.id}`,
      'vault-grant.consume',
      {},
      { auth: runtime },
    );
    const value = ctx.services.vault.cipher.openTransit(
      'consume',
      access.grant.id,
      consumed.secret.sealedValue,
    );
    const digest = createHmac(algorithm, value).update(message, 'utf8').digest(encoding);
    await ctx.log('info', `Secret ${secret} used through runtime grant ${access.grant.id} (consumed)`);
    return { digest, algorithm, encoding, secret };
  }

  async function dispatch(name: string, input: unknown): Promise<unknown> {
    if (name === 'secret.hmac') return secretHmac(input);
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw errors.validation(`The input of ${name} must be an object`);
    }
    if (name.startsWith('mcp.')) {
      if (!allowed('mcp'))
        throw refuse(
          `${skill.slug} may not call connector tools: the mcp permission is not declared and approved`,
        );
      return ctx.callTool(name, input as Record<string, unknown>, { invokedByType: 'skill', related });
    }
    const bare = name.startsWith(PLATFORM_PREFIX) ? name.slice(PLATFORM_PREFIX.length) : name;
    const family = bare.split('_')[0];
    if (!isBuiltinPrimitive(bare) || !FAMILIES.has(family)) {
      throw errors.notFound(
        `${name.slice(0, 200)} is not a platform call a skill may make (mem_*, net_*, fs_*, db_*, events_*, mcp.<server>.<tool>, secret.hmac)`,
      );
    }
    if (!allowed(family as SkillPermission)) {
      throw refuse(
        `${skill.slug} may not call ${bare}: the ${family} permission is not declared and approved`,
      );
    }
    return ctx.callTool(bare, input as Record<string, unknown>, { invokedByType: 'skill', related });
  }

  return {
    call: async (name, input) => {
      record.calls.push(name.slice(0, 200));
      try {
        return await dispatch(name, input);
      } catch (err) {
        const e = err as { code?: unknown; message?: unknown };
        record.lastError = {
          code: typeof e?.code === 'string' ? e.code : 'INTERNAL_ERROR',
          message: typeof e?.message === 'string' ? e.message : 'Internal error',
        };
        throw err;
      }
    },
  };
}
