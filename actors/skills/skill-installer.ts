import type { AgentDocument } from '../../schemas/documents/agent';
import type { SkillDocument, SkillInstallationDocument } from '../../schemas/documents/skill';
import { errors } from '../../schemas/errors';
import type {
  InstallationView,
  InstallSkillBody,
  PatchInstallationBody,
  SkillDetail,
} from '../../schemas/http/skills';
import type { Principal } from '../../schemas/auth';
import type { Repository } from '../../src/store/mongo';
import type { SkillCatalog } from './skill-catalog';
import { dependencyOrder } from './skill-dependencies';
import { installationView, skillDetail } from './skill-views';
import { newInstallationId } from './skills.collection';

/** What an install answers (`POST /api/skills/install`). */
export interface InstallResult {
  success: true;
  installation: InstallationView;
  skill: SkillDetail;
  dependenciesInstalled: Array<{ skill_id: string; slug: string; name: string; installation_id: string }>;
  /** The skill itself was installed (or installed again after a removal) by this request: 201. */
  created: boolean;
}

/** How deep a dependency chain may go (a broken catalog must not make the closure endless). */
const MAX_DEPTH = 20;

/**
 * The changes to one account's installations (docs/skills.md, "Installing"). Run by the
 * account's `skills` actor, so two requests of an account never interleave; every check is made
 * before the first write, and writes go dependencies first, so a failure leaves nothing half
 * made that a retry would not complete.
 */
export class SkillInstaller {
  constructor(
    private readonly deps: {
      catalog: SkillCatalog;
      skills: Repository<SkillDocument>;
      installations: Repository<SkillInstallationDocument>;
      agents: Repository<AgentDocument>;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** The skill and every skill its dependencies reach, by slug (loaded level by level). */
  private async closure(root: SkillDocument): Promise<Map<string, SkillDocument>> {
    const found = new Map([[root.slug, root]]);
    let wanted = [...root.dependencies.required, ...root.dependencies.optional];
    for (let depth = 0; wanted.length > 0 && depth < MAX_DEPTH; depth++) {
      const loaded = await this.deps.catalog.bySlugs(wanted.filter((s) => !found.has(s)));
      for (const [slug, doc] of loaded) found.set(slug, doc);
      wanted = [...loaded.values()].flatMap((d) => d.dependencies.required).filter((s) => !found.has(s));
    }
    return found;
  }

  private async installedByOf(principal: Principal): Promise<SkillInstallationDocument['installedBy']> {
    if (principal.subjectType !== 'agent' || !principal.agentId) return { kind: 'account' };
    const agent = await this.deps.agents.findById(principal.agentId);
    return agent ? { kind: 'agent', agentRef: agent.agentRef } : { kind: 'agent' };
  }

  async install(accountId: string, principal: Principal, body: InstallSkillBody): Promise<InstallResult> {
    const { catalog, installations, skills } = this.deps;
    const root = await catalog.get(body.skill_id ?? body.slug!);
    if (body.skill_id && body.slug && root.slug !== body.slug) {
      throw errors.validation('skill_id and slug name different skills', {
        skill_id: body.skill_id,
        slug: body.slug,
      });
    }
    const unknownOptional = body.optionalDependencies.filter((s) => !root.dependencies.optional.includes(s));
    if (unknownOptional.length > 0) {
      throw errors.validation(
        `Not optional dependencies of ${root.slug}: ${unknownOptional.join(', ')} (it has: ${root.dependencies.optional.join(', ') || 'none'})`,
        { optionalDependencies: unknownOptional },
      );
    }
    const known = await this.closure(root);
    const current = new Map(
      (
        await installations.find(
          { accountId, skillId: { $in: [...known.values()].map((s) => s._id) } },
          { limit: 0 },
        )
      ).map((i) => [i.skillId, i]),
    );
    let order: string[];
    if (body.installDependencies) {
      // Unknown dependencies are NOT_FOUND, cycles CONFLICT: both before anything is written.
      order = dependencyOrder(root.slug, (slug) => known.get(slug)?.dependencies, body.optionalDependencies);
    } else {
      const missing = root.dependencies.required.filter((slug) => {
        const dep = known.get(slug);
        return !dep || current.get(dep._id)?.status !== 'active';
      });
      if (missing.length > 0) {
        throw errors.conflict(
          `${root.slug} requires ${missing.join(', ')}: install ${missing.length > 1 ? 'them' : 'it'} first, or install with installDependencies`,
          { missingSkills: missing },
        );
      }
      order = [root.slug];
    }
    const installedBy = await this.installedByOf(principal);
    const dependenciesInstalled: InstallResult['dependenciesInstalled'] = [];
    let rootInstallation: SkillInstallationDocument | undefined;
    let created = false;
    for (const slug of order) {
      const skill = known.get(slug)!;
      const isRoot = slug === root.slug;
      const existing = current.get(skill._id);
      const at = this.now();
      let doc: SkillInstallationDocument;
      let fresh = false;
      if (!existing) {
        doc = await installations.insertUnique({
          _id: newInstallationId(),
          accountId,
          skillId: skill._id,
          slug,
          status: 'active',
          permissionsApproved: body.permissionsApproved,
          installedBy,
          dependencyOf: isRoot ? [] : [root.slug],
          installedAt: at,
          updatedAt: at,
          useCount: 0,
          version: 0,
        });
        fresh = true;
      } else if (existing.status === 'removed' || isRoot) {
        // Installed again (after a removal), or the skill asked for: active, with the permissions given.
        fresh = existing.status === 'removed';
        doc = await installations.updateIfVersion(existing._id, existing.version, {
          $set: {
            status: 'active',
            permissionsApproved: body.permissionsApproved,
            updatedAt: at,
            ...(fresh ? { installedAt: at, installedBy, dependencyOf: isRoot ? [] : [root.slug] } : {}),
          },
        });
        if (existing.status === 'disabled')
          await skills.updateOne({ _id: skill._id }, { $inc: { activeInstalls: 1 } });
      } else {
        // A dependency already there stays as it is (a disabled one stays disabled: its owner chose).
        doc = existing.dependencyOf.includes(root.slug)
          ? existing
          : await installations.updateIfVersion(existing._id, existing.version, {
              $set: { dependencyOf: [...existing.dependencyOf, root.slug], updatedAt: at },
            });
      }
      if (fresh) {
        await skills.updateOne({ _id: skill._id }, { $inc: { installCount: 1, activeInstalls: 1 } });
        if (!isRoot)
          dependenciesInstalled.push({
            skill_id: skill._id,
            slug,
            name: skill.name,
            installation_id: doc._id,
          });
      }
      if (isRoot) {
        rootInstallation = doc;
        created = fresh;
      }
    }
    const fresh = (await skills.findById(root._id)) ?? root;
    return {
      success: true,
      installation: installationView(rootInstallation!, fresh),
      skill: skillDetail(fresh),
      dependenciesInstalled,
      created,
    };
  }

  async update(
    accountId: string,
    ref: string,
    body: PatchInstallationBody,
  ): Promise<{ skill: SkillDetail; installation: InstallationView }> {
    const { catalog, installations, skills } = this.deps;
    const skill = await catalog.get(ref);
    const existing = await installations.findOne({ accountId, skillId: skill._id });
    if (!existing) throw errors.notFound(`${skill.slug} is not installed`, { skill: skill.slug });
    const status = body.status ?? existing.status;
    const doc = await installations.updateIfVersion(existing._id, existing.version, {
      $set: {
        status,
        ...(body.permissionsApproved ? { permissionsApproved: body.permissionsApproved } : {}),
        updatedAt: this.now(),
      },
    });
    const delta = (status === 'active' ? 1 : 0) - (existing.status === 'active' ? 1 : 0);
    if (delta !== 0) await skills.updateOne({ _id: skill._id }, { $inc: { activeInstalls: delta } });
    if (existing.status === 'removed' && status !== 'removed') {
      await skills.updateOne({ _id: skill._id }, { $inc: { installCount: 1 } });
    }
    const fresh = (await skills.findById(skill._id)) ?? skill;
    return { skill: skillDetail(fresh), installation: installationView(doc, fresh) };
  }

  /**
   * The account rates a skill it has installed (1-5); rating again replaces its rating. The
   * skill's sum, count and average change in one update (a pipeline), so concurrent ratings by
   * other accounts never leave the average behind its sum.
   */
  async rate(
    accountId: string,
    ref: string,
    stars: number,
  ): Promise<{ skill: SkillDetail; installation: InstallationView }> {
    const { catalog, installations, skills } = this.deps;
    const skill = await catalog.get(ref);
    const existing = await installations.findOne({ accountId, skillId: skill._id });
    if (!existing || existing.status === 'removed') {
      throw errors.forbidden(`Install ${skill.slug} before rating it`, {
        skill: skill.slug,
        reason: 'not_installed',
      });
    }
    const doc = await installations.updateIfVersion(existing._id, existing.version, {
      $set: { rating: stars, updatedAt: this.now() },
    });
    const sum = { $add: ['$ratingSum', stars - (existing.rating ?? 0)] };
    const count = { $add: ['$ratingCount', existing.rating === undefined ? 1 : 0] };
    await skills.raw.updateOne({ _id: skill._id }, [
      { $set: { ratingSum: sum, ratingCount: count } },
      { $set: { rating: { $round: [{ $divide: ['$ratingSum', '$ratingCount'] }, 2] } } },
    ]);
    const fresh = (await skills.findById(skill._id)) ?? skill;
    return { skill: skillDetail(fresh), installation: installationView(doc, fresh) };
  }

  /** A use ran: when, and how many. */
  async recordUse(accountId: string, skillId: string, at: Date): Promise<void> {
    await this.deps.installations.raw.updateOne(
      { accountId, skillId },
      { $max: { lastUsedAt: at }, $inc: { useCount: 1 } },
    );
    await this.deps.skills.updateOne({ _id: skillId }, { $inc: { useCount: 1 } });
  }
}
