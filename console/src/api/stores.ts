import { get, patch, post } from './http';
import type { ExecutionSummary } from './executions';

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
  permissions_required: string[];
  required_secrets: string[];
  capabilities: Capability[];
  installs?: number;
  rating?: number;
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

export interface Readiness {
  ready: boolean;
  installed?: boolean;
  updateAvailable?: boolean;
  requiredPermissions: string[];
  missingPermissions: string[];
  missingSecrets: string[];
  missingSkills: string[];
  targets?: { target: string; url: string }[];
}

export interface AppInstallation {
  status: string;
  version?: string;
  installedVersion?: string;
  permissionsApproved: string[];
}

export const skills = {
  list: (search?: string, category?: string) =>
    get<{ skills: SkillSummary[]; pagination: { total: number } }>('/api/skills', {
      search,
      category,
      limit: 50,
    }),
  preview: (idOrSlug: string) => get<SkillPreview>(`/api/skills/${encodeURIComponent(idOrSlug)}/preview`),
  installed: () => get<{ installed_skills: SkillInstallation[] }>('/api/skills/installed'),
  install: (slug: string, permissionsApproved: string[]) =>
    post<{ installation: SkillInstallation; dependenciesInstalled: { slug: string }[] }>(
      '/api/skills/install',
      {
        slug,
        permissionsApproved,
      },
    ),
  setStatus: (id: string, status: SkillInstallation['status']) =>
    patch<{ installation: SkillInstallation }>(`/api/skills/${encodeURIComponent(id)}/installation`, {
      status,
    }),
  use: (skill_slug: string, capability: string, params: unknown) =>
    post<{ success: boolean; result: unknown; execution_time_ms: number; execution: ExecutionSummary }>(
      '/api/skills/use',
      { skill_slug, capability, params },
    ),
};

export const apps = {
  list: (search?: string) =>
    get<{ apps: AppSummary[]; pagination: { total: number } }>('/api/apps', { search, limit: 50 }),
  get: (slug: string) =>
    get<{ app: AppSummary & Record<string, unknown> }>(`/api/apps/${encodeURIComponent(slug)}`),
  readiness: (slug: string) => get<Readiness>(`/api/apps/${encodeURIComponent(slug)}/readiness`),
  installed: () =>
    get<{ installedApps: { slug: string; installation: AppInstallation; readiness: Readiness }[] }>(
      '/api/apps/installed',
    ),
  install: (slug: string, permissionsApproved: string[]) =>
    post<{ installation: AppInstallation; readiness: Readiness }>('/api/apps/install', {
      slug,
      permissionsApproved,
    }),
  updates: () =>
    get<{
      updates: { app: AppSummary; currentVersion: string; installedVersion: string; releaseNotes?: string }[];
    }>('/api/apps/updates'),
  update: (slugs?: string[]) =>
    post<{ updated: { slug: string; from: string; to: string }[]; skipped: unknown[] }>('/api/apps/updates', {
      slugs,
    }),
  rollback: (slug: string) =>
    post<{ rolledBackTo: string }>(`/api/apps/${encodeURIComponent(slug)}/rollback`, {}),
};
