import type { FunctionComponent } from 'preact';
import { AccountPage } from './pages/account';
import { AgentsPage } from './pages/agents';
import { AppsPage } from './pages/apps';
import { ConnectorsPage } from './pages/connectors';
import { CredentialsPage } from './pages/credentials';
import { Dashboard } from './pages/dashboard';
import { ExecutionPage } from './pages/execution';
import { Executions } from './pages/executions';
import { FilesPage } from './pages/files';
import { MemoryPage } from './pages/memory';
import { NotificationsPage } from './pages/notifications';
import { OpsPage } from './pages/ops';
import { PanicPage } from './pages/panic';
import { PublishPage } from './pages/publish';
import { RecoveryPage } from './pages/recovery';
import { SkillsPage } from './pages/skills';
import { SocialPage } from './pages/social';
import { StudioPage } from './pages/studio';
import { TokensPage } from './pages/tokens';
import { VaultPage } from './pages/vault';
import { WorkspacesPage } from './pages/workspaces';
import { Link } from './router';

const PAGES: Record<string, FunctionComponent> = {
  '/': Dashboard,
  '/executions': Executions,
  '/recovery': RecoveryPage,
  '/panic': PanicPage,
  '/studio': StudioPage,
  '/notifications': NotificationsPage,
  '/files': FilesPage,
  '/memory': MemoryPage,
  '/vault': VaultPage,
  '/tokens': TokensPage,
  '/credentials': CredentialsPage,
  '/connectors': ConnectorsPage,
  '/agents': AgentsPage,
  '/workspaces': WorkspacesPage,
  '/skills': SkillsPage,
  '/apps': AppsPage,
  '/social': SocialPage,
  '/publish': PublishPage,
  '/ops': OpsPage,
  '/account': AccountPage,
};

function NotFound() {
  return (
    <section>
      <h1>No such page</h1>
      <p>
        Go back to the <Link href="/">dashboard</Link>.
      </p>
    </section>
  );
}

/** The page for a path (`/executions/<id>` is the one page with a parameter). */
export function renderRoute(path: string) {
  const match = /^\/executions\/([^/]+)$/.exec(path);
  if (match) {
    const id = decodeURIComponent(match[1]);
    return <ExecutionPage key={id} id={id} />;
  }
  const Page = PAGES[path.replace(/\/+$/, '') || '/'] ?? NotFound;
  return <Page />;
}
