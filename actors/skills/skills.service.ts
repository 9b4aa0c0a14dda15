import type { Principal } from '../../schemas/auth';
import type { InstallationView, UseSkillBody } from '../../schemas/http/skills';
import type { Services } from '../../src/boot/services';
import type { AnyActorDefinition } from '../../src/kernel/actor-definition';
import { accountsCollection } from '../identity/accounts.collection';
import { agentsCollection } from '../identity/agents.collection';
import type { ExternalToolResolver } from '../tools/router/tool-registry';
import { loadCatalog } from './catalog-loader';
import { DeveloperProfiles, type DeveloperAppsSource } from './developer-profiles';
import { seedCatalog, type SeedReport } from './catalog-seed';
import { SkillCatalog } from './skill-catalog';
import { SkillInstaller } from './skill-installer';
import { SkillPublisher } from './skill-publisher';
import { skillPublisherActor } from './skill-publisher.actor';
import { installationView } from './skill-views';
import { createSkillTools } from './skill-tools';
import { useSkill, type UseResult } from './skill-use';
import { skillsActor } from './skills.actor';
import type { SkillContent } from './skill-content';
import { developersCollection, skillInstallationsCollection, skillsCollection } from './skills.collection';

/** Tuning of the skill store (tests, benchmarks). */
export interface SkillsOptions {
  /** The seed catalog. Default: the files of actors/skills/catalog (loaded once per process). */
  catalog?: readonly SkillContent[];
  /** The apps of developer profiles (the app store's). Default: none. */
  apps?: DeveloperAppsSource;
}

/**
 * The skill store of one process (docs/skills.md): `services.skills`, built once by
 * `startRuntime`. The catalog's reads; the seed, run at boot (and by ops bootstrap).
 */
export interface SkillsService {
  readonly catalog: SkillCatalog;
  /** Writes the seed catalog into the store (idempotent). */
  seed(): Promise<SeedReport>;
  /** The slugs of the account's installed skills (active or disabled), sorted. */
  installedSlugs(accountId: string): Promise<string[]>;
  /** The account's installations (active or disabled), newest first. */
  installed(accountId: string): Promise<InstallationView[]>;
  /** The changes to installations (run by the `skills` actor). */
  readonly installer: SkillInstaller;
  /** One use of a capability as a SKILL_EXECUTION, followed to its end (skill-use.ts). */
  use(caller: Principal & { accountId: string }, body: UseSkillBody): Promise<UseResult>;
  /** The tool router's resolver of `platform.skill.<slug>.<capability>` (installed by build-services). */
  readonly tools: ExternalToolResolver;
  /** `GET /api/developers/{handle}`. */
  readonly developers: DeveloperProfiles;
  /** Publications by enterprise accounts (run by the `skill-publisher` actor). */
  readonly publisher: SkillPublisher;
}

export function createSkillsService(services: Services, options: SkillsOptions = {}): SkillsService {
  const { documents, logger } = services;
  const skills = documents.repository(skillsCollection);
  const developers = documents.repository(developersCollection);
  const installations = documents.repository(skillInstallationsCollection);
  let catalogFiles: readonly SkillContent[] | undefined = options.catalog;
  const log = logger.child({ component: 'skills' });
  const catalog = new SkillCatalog(skills);
  const installer = new SkillInstaller({
    catalog,
    skills,
    installations,
    agents: documents.repository(agentsCollection),
  });
  return {
    catalog,
    installer,
    seed: async () => {
      catalogFiles ??= loadCatalog();
      const report = await seedCatalog({ skills, developers, logger: log }, catalogFiles);
      log.info({ ...report, skipped: report.skipped.length }, 'skill catalog seeded');
      return report;
    },
    installedSlugs: async (accountId) => {
      const docs = await installations.find({ accountId, status: { $ne: 'removed' } }, { limit: 0 });
      return docs.map((d) => d.slug).sort();
    },
    use: (caller, body) => useSkill(services, catalog, caller, body),
    tools: createSkillTools(services, catalog),
    developers: new DeveloperProfiles({ developers, catalog, installations, apps: options.apps }),
    publisher: new SkillPublisher({
      skills,
      developers,
      accounts: documents.repository(accountsCollection),
      sandbox: services.sandbox,
    }),
    installed: async (accountId) => {
      const docs = await installations.find(
        { accountId, status: { $ne: 'removed' } },
        { sort: { installedAt: -1, _id: 1 }, limit: 0 },
      );
      const byId = await catalog.listedByIds(docs.map((d) => d.skillId));
      return docs.filter((d) => byId.has(d.skillId)).map((d) => installationView(d, byId.get(d.skillId)!));
    },
  };
}

/** The `skills` (`skills:<accountId>`) and `skill-publisher` actors, from the services. */
export function skillsActors(services: Services): AnyActorDefinition[] {
  return [skillsActor(services.skills.installer), skillPublisherActor(services.skills.publisher)];
}
