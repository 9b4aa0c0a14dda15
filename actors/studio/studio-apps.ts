import type { Principal } from '../../schemas/auth';
import type { StudioEnv, StudioReply } from './studio-commands';
import type { StudioCommand } from './studio-grammar';
import type { ActionPlan } from './studio-skills';

type Caller = Principal & { accountId: string };

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** `apps list` and `apps search <q>`: the store's listing (most installed first), the caller's marked. */
async function listApps(env: StudioEnv, principal: Caller, search?: string): Promise<StudioReply> {
  const { apps } = env.services;
  const [listing, installed] = await Promise.all([
    apps.catalog.list({ search, sort: 'popular', page: 1, limit: 20 }),
    apps.installer.installedApps(principal.accountId),
  ]);
  const mine = new Map(installed.installedApps.map((i) => [i.slug, i]));
  const total = listing.pagination.total;
  return {
    kind: 'result',
    summary: search
      ? `${plural(total, 'app')} match "${search.slice(0, 100)}"`
      : `${plural(total, 'app')} in the store; ${mine.size} installed`,
    result: {
      total,
      apps: listing.apps.map((a) => ({
        slug: a.slug,
        name: a.name,
        category: a.category,
        description: a.description,
        version: a.version,
        installs: a.installCount,
        rating: a.rating,
        installed: mine.has(a.slug),
        ready: mine.get(a.slug)?.readiness.ready ?? false,
      })),
    },
    snippet: search ? `GET /api/apps?search=${encodeURIComponent(search)}` : 'GET /api/apps',
  };
}

/** `apps open <slug> [target]`: readiness re-run; its failures are the command's errors (as the route's). */
async function openApp(
  env: StudioEnv,
  principal: Caller,
  slug: string,
  target: 'web' | 'android' | 'ios',
): Promise<StudioReply> {
  const opened = await env.services.apps.installer.open(principal.accountId, slug, target);
  return {
    kind: 'result',
    summary: `Open ${opened.app.name}: ${opened.openUrl}`,
    result: { slug, target, openUrl: opened.openUrl, version: opened.installation.installedVersion },
    snippet: `POST /api/apps/${slug}/open ${JSON.stringify({ target })}`,
  };
}

/** The read-only `apps` commands, answered at once; undefined for the others. */
export function answerApps(
  env: StudioEnv,
  principal: Caller,
  command: StudioCommand,
): Promise<StudioReply> | undefined {
  switch (command.kind) {
    case 'apps.list':
      return listApps(env, principal);
    case 'apps.search':
      return listApps(env, principal, command.query);
    case 'apps.open':
      return openApp(env, principal, command.slug, command.target);
    default:
      return undefined;
  }
}

/**
 * `apps install <slug>`: mutating. The preview is the app's readiness for the caller: the
 * permissions confirming approves, and the skills or secrets still missing (the install would be
 * refused with their code until they are in place). Confirming installs as `POST
 * /api/apps/install` does: an APP_INSTALL execution, the library entry, a notification.
 */
export async function appInstallPlan(env: StudioEnv, principal: Caller, slug: string): Promise<ActionPlan> {
  const { apps } = env.services;
  const app = await apps.catalog.get(slug, principal.accountId);
  const readiness = await apps.installer.readiness(principal.accountId, slug);
  const body = { slug, permissionsApproved: readiness.requiredPermissions };
  const snippet = `POST /api/apps/install ${JSON.stringify(body)}`;
  return {
    kind: 'action',
    mutating: true,
    preview: {
      app: { slug, name: app.name, version: app.latestVersion, category: app.category },
      permissionsApproved: body.permissionsApproved,
      missingSkills: readiness.missingSkills,
      missingSecrets: readiness.missingSecrets,
      alreadyInstalled: readiness.installation !== null,
    },
    snippet,
    run: async () => {
      const installed = await apps.installer.install(principal, {
        ...body,
        permissionsApproved: [...body.permissionsApproved],
      });
      return {
        kind: 'result',
        summary: `${app.name} ${installed.installation.installedVersion} installed${installed.readiness.ready ? ' and ready' : ''}`,
        result: { installation: installed.installation, readiness: installed.readiness },
        snippet,
        execution: { id: installed.execution.id, status: installed.execution.status },
      };
    },
  };
}
