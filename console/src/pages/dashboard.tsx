import { executions, STATUSES } from '../api/executions';
import { notifications } from '../api/account';
import { BarChart } from '../components/charts';
import { Busy, Empty, ErrorBox, Status, useLoad, when } from '../components/ui';
import { Link, useLocation } from '../router';
import { useApp } from '../state';
import { DemoLauncher } from './demo-launcher';

export function Dashboard() {
  const app = useApp();
  const { query } = useLocation();
  const recent = useLoad(
    () => executions.list({ limit: 100, workspaceId: app.workspaceId || undefined }),
    [app.workspaceId],
  );
  const inbox = useLoad(() => notifications.list('unread'), [app.unread]);
  const list = recent.data?.executions ?? [];
  const counts = STATUSES.map((s) => ({
    label: s,
    value: list.filter((e) => e.status === s).length,
    tone: s.toLowerCase(),
  }));
  return (
    <section>
      <h1>Dashboard</h1>
      {query.get('signedIn') === 'link' ? (
        <p class="notice" role="status">
          Signed in with a one-time login link.
        </p>
      ) : null}
      <p class="muted">
        Signed in as <strong>{app.session.agentName}</strong> · plan{' '}
        {app.session.planLabel ?? app.session.plan ?? '—'}
      </p>
      <div class="grid">
        <div class="card">
          <h2>Executions in this workspace</h2>
          {recent.loading && !recent.data ? <Busy /> : null}
          <ErrorBox error={recent.error} />
          {list.length ? <BarChart title="By status (last 100)" bars={counts} /> : null}
          {recent.data && list.length === 0 ? (
            <Empty>
              No executions yet: start a demo below, or ask something in the{' '}
              <Link href="/studio">Studio</Link>.
            </Empty>
          ) : null}
          <ul class="plain">
            {list.slice(0, 5).map((e) => (
              <li key={e.id}>
                <Link href={`/executions/${e.id}`}>{e.title || e.id}</Link> <Status status={e.status} />
              </li>
            ))}
          </ul>
          <Link href="/executions">All executions →</Link>
        </div>
        <div class="card">
          <h2>Start a demo execution</h2>
          <DemoLauncher />
        </div>
        <div class="card">
          <h2>Unread notifications</h2>
          <ErrorBox error={inbox.error} />
          {inbox.data && inbox.data.notifications.length === 0 ? (
            <Empty>Nothing unread. Actions on executions show up here.</Empty>
          ) : null}
          <ul class="plain">
            {(inbox.data?.notifications ?? []).slice(0, 5).map((n) => (
              <li key={n.id}>
                <strong>{n.title}</strong> <span class="muted">{when(n.createdAt)}</span>
              </li>
            ))}
          </ul>
          <Link href="/notifications">Open notifications →</Link>
        </div>
        <div class="card">
          <h2>Quick links</h2>
          <ul class="plain">
            <li>
              <Link href="/studio">Run a Studio command</Link>
            </li>
            <li>
              <Link href="/skills">Browse the skill store</Link>
            </li>
            <li>
              <Link href="/files">Upload a file</Link>
            </li>
            <li>
              <Link href="/tokens">Create a bearer token</Link>
            </li>
            <li>
              <Link href="/panic">Panic button</Link>
            </li>
          </ul>
        </div>
      </div>
    </section>
  );
}
