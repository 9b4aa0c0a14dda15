import { createHash } from 'node:crypto';
import type { Principal } from '../../schemas/auth';
import type {
  AppActivityDocument,
  AppDocument,
  AppInstallationDocument,
  AppLibraryDocument,
  AppPackageCacheDocument,
  AppVersion,
} from '../../schemas/documents/app';
import type { Effect } from '../../schemas/documents/execution';
import { errors } from '../../schemas/errors';
import type { LogView } from '../../schemas/http/executions';
import type { Repository } from '../../src/store/mongo';
import { executionView } from '../executions/execution-views';
import type { ExecutionsService } from '../executions/executions.service';
import { recordCompletedExecution, workspaceForChange } from '../executions/record-completed';
import type { NotificationsRepo } from '../notifications/notifications.repo';
import { appSummary } from './app-views';
import { newAppRecordId } from './apps.collection';

export type AppCaller = Principal & { accountId: string };
type Kind = AppActivityDocument['kind'];

export interface AppEffectsDeps {
  library: Repository<AppLibraryDocument>;
  packages: Repository<AppPackageCacheDocument>;
  activity: Repository<AppActivityDocument>;
  installations: Repository<AppInstallationDocument>;
  notifications: NotificationsRepo;
  /** The executions service (built after the app store: read when called). */
  executions: () => ExecutionsService | undefined;
  now?: () => Date;
}

/** What an install, an update or a device install answers about its execution. */
export type AppExecution = ReturnType<typeof executionView> & { logs: LogView[] };

/** The package of one version (`platform.app.v1`), as downloaded and as cached for devices. */
export function packageOf(app: AppDocument, version: AppVersion) {
  return {
    schema: 'platform.app.v1' as const,
    app: { ...appSummary(app), version: version.version },
    manifest: version.manifest,
    defaultConfig: version.defaultConfig,
  };
}

/**
 * The side effects of the app store's changes (docs/apps.md, "What an install does"): the library
 * entry, the package cache, a completed execution with its logs (visible in `/api/executions`,
 * `appSlug` set), an activity line and a notification. The installer checks everything first and
 * calls these only after its one write.
 */
export class AppEffects {
  constructor(private readonly deps: AppEffectsDeps) {}

  now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private executions(): ExecutionsService {
    const svc = this.deps.executions();
    if (!svc) throw errors.unavailable('Executions are not available on this node');
    return svc;
  }

  /**
   * The workspace a change is recorded in: the given one (the account must be a member: else
   * 404), else the account's default one; refused (403) while it is in panic lockdown. Called
   * before any write.
   */
  async workspaceFor(caller: AppCaller, workspaceId: string | undefined): Promise<string> {
    const svc = this.executions();
    if (workspaceId && !(await svc.workspaces.canWorkIn(caller.accountId, workspaceId))) {
      throw errors.notFound('Workspace not found', { workspaceId, field: 'workspaceId' });
    }
    return workspaceForChange(svc, caller, workspaceId);
  }

  /** Records a finished operation on an app as an execution, with a log line per step it did. */
  async execution(
    caller: AppCaller,
    op: {
      type: string;
      title: string;
      slug: string;
      workspaceId: string;
      lines: string[];
      result: unknown;
      /** What a rollback of the execution undoes (none: it has nothing to undo). */
      effects?: Effect[];
    },
  ): Promise<AppExecution> {
    const svc = this.executions();
    const doc = await recordCompletedExecution(svc, caller, {
      type: op.type,
      title: op.title,
      sourceType: 'app',
      workspaceId: op.workspaceId,
      appSlug: op.slug,
      stepName: op.title,
      effects: op.effects ?? [],
      result: op.result,
      logLines: op.lines,
    });
    return { ...executionView(doc), logs: await svc.logs.tail(doc._id, 50) };
  }

  /** Keeps the package of `version` for the account (idempotent: one per account, app and version). */
  async cachePackage(
    accountId: string,
    app: AppDocument,
    version: AppVersion,
  ): Promise<AppPackageCacheDocument> {
    const pkg = packageOf(app, version);
    const json = JSON.stringify(pkg);
    const doc: AppPackageCacheDocument = {
      _id: `${accountId}:${app._id}@${version.version}`,
      accountId,
      slug: app._id,
      version: version.version,
      sha256: createHash('sha256').update(json).digest('hex'),
      bytes: Buffer.byteLength(json),
      package: pkg,
      cachedAt: this.now(),
    };
    if (await this.deps.packages.insertIfAbsent(doc)) return doc;
    return (await this.deps.packages.findById(doc._id)) ?? doc;
  }

  async cachedPackage(accountId: string, slug: string, version: string) {
    return this.deps.packages.findById(`${accountId}:${slug}@${version}`);
  }

  /** The account's library entry of the app (made once; an install after a removal makes it again). */
  async addToLibrary(accountId: string, slug: string, workspaceId: string): Promise<AppLibraryDocument> {
    const now = this.now();
    const doc: AppLibraryDocument = {
      _id: `${accountId}:${slug}`,
      accountId,
      slug,
      workspaceId,
      devices: [],
      addedAt: now,
      updatedAt: now,
    };
    if (await this.deps.library.insertIfAbsent(doc)) return doc;
    return (await this.deps.library.findById(doc._id)) ?? doc;
  }

  async libraryEntry(accountId: string, slug: string): Promise<AppLibraryDocument | null> {
    return this.deps.library.findById(`${accountId}:${slug}`);
  }

  /** Drops the library entry (and its device installs) and the cached packages: the app was removed. */
  async dropFromLibrary(accountId: string, slug: string): Promise<void> {
    await this.deps.library.deleteMany({ accountId, slug });
    await this.deps.packages.deleteMany({ accountId, slug });
  }

  async activity(
    accountId: string,
    slug: string,
    kind: Kind,
    summary: string,
    extra: { executionId?: string; workspaceId?: string } = {},
  ): Promise<void> {
    await this.deps.activity.insert({
      _id: newAppRecordId('aac'),
      accountId,
      slug,
      kind,
      summary: summary.slice(0, 300),
      ...extra,
      at: this.now(),
    });
  }

  /** `GET /api/apps/activity`: the account's last 50 lines. */
  async activityOf(accountId: string) {
    const docs = await this.deps.activity.find({ accountId }, { sort: { at: -1, _id: -1 }, limit: 50 });
    return docs.map((d) => ({
      slug: d.slug,
      kind: d.kind,
      summary: d.summary,
      executionId: d.executionId ?? null,
      workspaceId: d.workspaceId ?? null,
      at: d.at.toISOString(),
    }));
  }

  async notify(
    accountId: string,
    n: { title: string; body: string; executionId: string; workspaceId: string },
  ): Promise<void> {
    // An install is a finished task of the account: a `task` notification pointing at its execution.
    await this.deps.notifications.create(accountId, { type: 'task', ...n }, this.now());
  }

  /** An open or a runtime use: what developer profiles' active users count (docs/apps.md). */
  async markActive(accountId: string, slug: string): Promise<void> {
    await this.deps.installations.raw.updateOne({ accountId, slug }, { $max: { lastActiveAt: this.now() } });
  }

  /**
   * Undoes the side effects a failed install wrote (the installer's compensation, after it put
   * the installation back): the library entry, the cached packages, and the execution with its
   * logs and activity, which would otherwise report an install that did not happen.
   */
  async undoInstall(accountId: string, slug: string, executionId?: string): Promise<void> {
    await this.dropFromLibrary(accountId, slug);
    if (!executionId) return;
    await this.deps.activity.deleteMany({ accountId, executionId });
    const svc = this.deps.executions();
    await svc?.store.repo.deleteOne({ _id: executionId, accountId });
    await svc?.logs.repo.deleteMany({ executionId });
  }
}
