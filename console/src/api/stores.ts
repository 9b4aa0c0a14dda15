import type { operations } from '../../../client/index';
import { api, call, callLoose } from './http';
import type { ExecutionSummary } from './executions';

/** A permission a skill can ask for (the install body's enum). */
export type SkillPermission = NonNullable<
  NonNullable<
    operations['postApiSkillsInstall']['requestBody']
  >['content']['application/json']['permissionsApproved']
>[number];

export interface Capability {
  name: string;
  description?: string;
  mutating?: boolean;
  tool?: string;
  paramsSchema?: unknown;
}

export interface SkillSummary {
  skill_id: string;
  slug: string;
  name: string;
  description: string;
  category: string;
  version: string;
  author?: string;
  permissions_required: SkillPermission[];
  required_secrets: string[];
  capabilities: Capability[];
  installs?: number;
  rating?: number | null;
}

export type SkillDetail = SkillSummary;

export interface SkillPreview {
  skill: SkillDetail;
  preview: {
    inputExample: { capability: string; params: unknown };
    outputExample?: unknown;
    executionExample?: unknown;
  };
}

export interface SkillInstallation {
  id: string;
  status: 'active' | 'disabled' | 'removed';
  permissionsApproved: string[];
  missingPermissions: string[];
  uses?: number;
  skill: SkillSummary;
}

export interface AppSummary {
  slug: string;
  name: string;
  description: string;
  category: string;
  installCount?: number;
  latestVersion?: string;
  version?: string;
  manifest?: {
    version: string;
    permissions?: string[];
    requiredSecrets?: string[];
    requiredSkills?: string[];
  };
}

/** What an app needs before it can run, and what is missing (its contract's answer). */
export type Readiness =
  operations['getApiAppsBySlugReadiness']['responses'][200]['content']['application/json'];

export interface AppInstallation {
  status: string;
  version?: string;
  installedVersion?: string;
  permissionsApproved: string[];
}

export const skills = {
  list: (
    search?: string,
    category?: string,
  ): Promise<{ skills: SkillSummary[]; pagination: { total: number } }> =>
    call(
      api.GET('/api/skills', {
        params: { query: { ...(search ? { search } : {}), ...(category ? { category } : {}), limit: 50 } },
      }),
    ),
  preview: (id: string): Promise<SkillPreview> =>
    callLoose(api.GET('/api/skills/{id}/preview', { params: { path: { id } } })),
  installed: (): Promise<{ installed_skills: SkillInstallation[] }> =>
    callLoose(api.GET('/api/skills/installed')),
  install: (
    slug: string,
    permissionsApproved: SkillPermission[],
  ): Promise<{ installation: SkillInstallation; dependenciesInstalled: { slug: string }[] }> =>
    callLoose(api.POST('/api/skills/install', { body: { slug, permissionsApproved } })),
  setStatus: (
    id: string,
    status: SkillInstallation['status'],
  ): Promise<{ installation: SkillInstallation }> =>
    callLoose(api.PATCH('/api/skills/{id}/installation', { params: { path: { id } }, body: { status } })),
  use: (
    skill_slug: string,
    capability: string,
    params: Record<string, unknown>,
  ): Promise<{ success: boolean; result: unknown; execution_time_ms: number; execution: ExecutionSummary }> =>
    callLoose(api.POST('/api/skills/use', { body: { skill_slug, capability, params } })),
};

/** What `POST /api/apps` takes (its contract's body: name, category, description, manifest…). */
export type PublishAppBody = NonNullable<
  operations['postApiApps']['requestBody']
>['content']['application/json'];
export type AppCategory = PublishAppBody['category'];

export const apps = {
  /** Publishes an app, or a new version of one (enterprise accounts; 409 for a version already there). */
  publish: (body: PublishAppBody) => call(api.POST('/api/apps', { body })),
  list: (search?: string): Promise<{ apps: AppSummary[]; pagination: { total: number } }> =>
    callLoose(api.GET('/api/apps', { params: { query: { ...(search ? { search } : {}), limit: 50 } } })),
  get: (slug: string): Promise<{ app: AppSummary & Record<string, unknown> }> =>
    callLoose(api.GET('/api/apps/{slug}', { params: { path: { slug } } })),
  readiness: (slug: string): Promise<Readiness> =>
    call(api.GET('/api/apps/{slug}/readiness', { params: { path: { slug } } })),
  installed: (): Promise<{
    installedApps: { slug: string; installation: AppInstallation; readiness: Readiness }[];
  }> => callLoose(api.GET('/api/apps/installed')),
  install: (
    slug: string,
    permissionsApproved: string[],
  ): Promise<{ installation: AppInstallation; readiness: Readiness }> =>
    callLoose(api.POST('/api/apps/install', { body: { slug, permissionsApproved } })),
  updates: (): Promise<{
    updates: { app: AppSummary; currentVersion: string; installedVersion: string; releaseNotes?: string }[];
  }> => callLoose(api.GET('/api/apps/updates')),
  /** Updates every installed app that can be (the route takes no body). */
  update: (): Promise<{ updated: { slug: string; from: string; to: string }[]; skipped: unknown[] }> =>
    callLoose(api.POST('/api/apps/updates')),
  rollback: (slug: string): Promise<{ rolledBackTo: string }> =>
    callLoose(api.POST('/api/apps/{slug}/rollback', { params: { path: { slug } } })),
};
