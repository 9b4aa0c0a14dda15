import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { notifications, workspaces as workspacesApi, type Workspace } from './api/account';
import type { Session } from './api/auth';
import { executions } from './api/executions';
import { auth } from './api/auth';
import { ErrorBox, when } from './components/ui';
import { Link, navigate } from './router';
import { AppContext, type AppState } from './state';
import { renderRoute } from './routes';

const NAV: [string, string][] = [
  ['/', 'Dashboard'],
  ['/executions', 'Executions'],
  ['/recovery', 'Recovery'],
  ['/studio', 'Studio'],
  ['/notifications', 'Notifications'],
  ['/files', 'Files'],
  ['/memory', 'Memory'],
  ['/vault', 'Vault'],
  ['/tokens', 'Tokens'],
  ['/credentials', 'Credentials'],
  ['/connectors', 'Connectors'],
  ['/agents', 'Agents'],
  ['/workspaces', 'Workspaces'],
  ['/skills', 'Skills'],
  ['/apps', 'Apps'],
  ['/social', 'Social'],
  ['/publish', 'Publish'],
  ['/ops', 'Ops'],
  ['/account', 'Plan'],
];

/**
 * Links of pages the account's plan cannot use are left out (the API answers 403 anyway): publishing
 * is for enterprise accounts, runtime credentials need the `access_sdk` capability.
 */
function navShown(href: string, session: Session): boolean {
  if (href === '/publish') return session.accountType === 'enterprise';
  if (href === '/credentials') return session.capabilities?.includes('access_sdk') ?? false;
  return true;
}

const WORKSPACE_KEY = 'console.workspaceId';

export function Shell(props: { session: Session; refreshSession: () => Promise<void>; path: string }) {
  const [list, setList] = useState<Workspace[]>([]);
  const [workspaceId, setWorkspace] = useState<string>(sessionStorage.getItem(WORKSPACE_KEY) ?? '');
  const [lockdown, setLockdown] = useState<{ active: boolean; since: string | null }>({
    active: false,
    since: null,
  });
  const [unread, setUnread] = useState(0);
  const [menuOpen, setMenuOpen] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const refreshWorkspaces = useCallback(async () => {
    try {
      const { workspaces } = await workspacesApi.list();
      setList(workspaces);
      setWorkspace((current) =>
        workspaces.some((w) => w.id === current)
          ? current
          : ((workspaces.find((w) => w.isDefault) ?? workspaces[0])?.id ?? ''),
      );
    } catch (err) {
      setError(err);
    }
  }, []);
  const refreshLockdown = useCallback(async () => {
    if (!workspaceId) return;
    try {
      const state = await executions.panicState(workspaceId);
      setLockdown({ active: state.lockdown, since: state.since });
    } catch (err) {
      setError(err);
    }
  }, [workspaceId]);
  const refreshUnread = useCallback(async () => {
    try {
      const { notifications: list } = await notifications.list('unread');
      setUnread(list.length);
    } catch {
      // The count is a hint: a failed refresh keeps the last one.
    }
  }, []);

  useEffect(() => void refreshWorkspaces(), [refreshWorkspaces]);
  useEffect(() => {
    void refreshLockdown();
    void refreshUnread();
    const timer = setInterval(() => {
      void refreshLockdown();
      void refreshUnread();
    }, 10_000);
    return () => clearInterval(timer);
  }, [refreshLockdown, refreshUnread]);
  useEffect(() => setMenuOpen(false), [props.path]);

  const state: AppState = useMemo(
    () => ({
      session: props.session,
      workspaces: list,
      workspaceId,
      setWorkspaceId: (id: string) => {
        sessionStorage.setItem(WORKSPACE_KEY, id);
        setWorkspace(id);
      },
      lockdown,
      refreshLockdown,
      unread,
      refreshUnread,
      refreshSession: props.refreshSession,
      refreshWorkspaces,
    }),
    [
      props.session,
      list,
      workspaceId,
      lockdown,
      refreshLockdown,
      unread,
      refreshUnread,
      props.refreshSession,
      refreshWorkspaces,
    ],
  );

  const signOut = async () => {
    try {
      await auth.signout();
    } finally {
      await props.refreshSession();
      navigate('/signin', true);
    }
  };

  return (
    <AppContext.Provider value={state}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <Link href="/" class="brand">
          Agent runtime
        </Link>
        <button
          type="button"
          class="menu-toggle"
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
        </button>
        <label class="ws-select">
          <span class="sr-only">Workspace</span>
          <select value={workspaceId} onChange={(e) => state.setWorkspaceId(e.currentTarget.value)}>
            {list.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
        <Link href="/notifications" class="bell">
          <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" class="bell-icon">
            <path d="M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6zm0 18a2.5 2.5 0 0 0 2.4-2h-4.8A2.5 2.5 0 0 0 12 21z" />
          </svg>
          <span class="sr-only">Notifications, unread:</span>
          <span class="count" data-testid="unread-count">
            {unread}
          </span>
        </Link>
        <span class="who">{props.session.agentName ?? 'agent'}</span>
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      {lockdown.active ? (
        <div class="lockdown" role="alert" data-testid="lockdown-banner">
          <strong>Lockdown</strong>: this workspace is in panic lockdown since {when(lockdown.since)}. Tool
          calls and new executions are refused. <Link href="/panic">Review and lift</Link>
        </div>
      ) : null}
      <div class="layout">
        <nav class={menuOpen ? 'side open' : 'side'} aria-label="Main">
          <ul>
            {NAV.filter(([href]) => navShown(href, props.session)).map(([href, label]) => (
              <li key={href}>
                <Link href={href} current={href === '/' ? props.path === '/' : props.path.startsWith(href)}>
                  {label}
                  {href === '/notifications' && unread > 0 ? <span class="pill">{unread}</span> : null}
                </Link>
              </li>
            ))}
            <li>
              <Link href="/panic" class="panic-link" current={props.path === '/panic'}>
                Panic
              </Link>
            </li>
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          <ErrorBox error={error} />
          {renderRoute(props.path)}
        </main>
      </div>
    </AppContext.Provider>
  );
}
