import type { AppDocument, AppInstallationDocument, AppVersion } from '../../schemas/documents/app';

/** An app as the store shows it (the App resource of the spec, with its kept versions). */
export function appView(doc: AppDocument, version: AppVersion = latestOf(doc)) {
  return {
    slug: doc._id,
    name: doc.name,
    category: doc.category,
    description: doc.description,
    deviceTargets: doc.deviceTargets,
    published: doc.published,
    developer: doc.developer,
    version: version.version,
    manifest: version.manifest,
    defaultConfig: version.defaultConfig,
    versions: doc.versions.map((v) => ({
      version: v.version,
      releaseNotes: v.releaseNotes,
      publishedAt: v.publishedAt.toISOString(),
    })),
    installCount: doc.installCount,
    downloadCount: doc.downloadCount,
    rating: doc.rating ?? null,
    ratingCount: doc.ratingCount ?? 0,
    createdAt: doc.createdAt.toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
  };
}
export type AppView = ReturnType<typeof appView>;

/** The short form of listings and developer profiles. */
export function appSummary(doc: AppDocument) {
  return {
    slug: doc._id,
    name: doc.name,
    category: doc.category,
    description: doc.description,
    developer: doc.developer,
    version: doc.latestVersion,
    published: doc.published,
    installCount: doc.installCount,
    rating: doc.rating ?? null,
    ratingCount: doc.ratingCount ?? 0,
    updatedAt: doc.updatedAt.toISOString(),
  };
}
export type AppSummary = ReturnType<typeof appSummary>;

export function latestOf(doc: AppDocument): AppVersion {
  return doc.versions.find((v) => v.version === doc.latestVersion) ?? doc.versions[doc.versions.length - 1];
}

export function versionOf(doc: AppDocument, version: string): AppVersion | undefined {
  return doc.versions.find((v) => v.version === version);
}

export function installationView(doc: AppInstallationDocument) {
  return {
    id: doc._id,
    slug: doc.slug,
    ...(doc.workspaceId ? { workspaceId: doc.workspaceId } : {}),
    installedVersion: doc.installedVersion,
    previousVersions: doc.previousVersions,
    status: doc.status,
    favorite: doc.favorite,
    permissionsApproved: doc.permissionsApproved,
    rating: doc.rating ?? null,
    installedAt: doc.installedAt.toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
  };
}
export type InstallationView = ReturnType<typeof installationView>;

/** The versions `a` and `b` compared as major.minor.patch: negative, 0 or positive. */
export function compareVersions(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}
