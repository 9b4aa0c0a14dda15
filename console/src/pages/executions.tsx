import { useEffect, useRef, useState } from 'preact/hooks';
import { executions, STATUSES, type ExecutionSummary } from '../api/executions';
import { followExecution } from '../api/sse';
import { Busy, Empty, ErrorBox, Status, Table, when } from '../components/ui';
import { Link } from '../router';
import { useApp } from '../state';

const ACTIVE = new Set(['QUEUED', 'RUNNING', 'PAUSED']);
/** At most this many live streams at once from one list (the browser's connection budget). */
const MAX_FOLLOWED = 4;

/**
 * The execution list, filtered by status, source and workspace. Each active execution on the page
 * is followed over SSE (`/api/executions/{id}/events`): its row changes as events arrive; the
 * list itself is read again every 15 s to pick up new executions.
 */
export function Executions() {
  const app = useApp();
  const [status, setStatus] = useState('');
  const [source, setSource] = useState('');
  const [workspace, setWorkspace] = useState(app.workspaceId);
  const [rows, setRows] = useState<ExecutionSummary[] | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const followed = useRef(new Map<string, () => void>());

  useEffect(() => setWorkspace(app.workspaceId), [app.workspaceId]);

  useEffect(() => {
    let stop = false;
    const load = async () => {
      try {
        const answer = await executions.list({
          status,
          sourceType: source,
          workspaceId: workspace,
          limit: 50,
        });
        if (!stop) {
          setRows(answer.executions);
          setError(null);
        }
      } catch (err) {
        if (!stop) setError(err);
      }
    };
    void load();
    const timer = setInterval(() => void load(), 15_000);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [status, source, workspace]);

  // Follow the active rows live; stop following those that ended or left the page.
  useEffect(() => {
    const wanted = new Set(
      (rows ?? [])
        .filter((r) => ACTIVE.has(r.status))
        .slice(0, MAX_FOLLOWED)
        .map((r) => r.id),
    );
    for (const [id, close] of followed.current) {
      if (!wanted.has(id)) {
        close();
        followed.current.delete(id);
      }
    }
    for (const id of wanted) {
      if (followed.current.has(id)) continue;
      followed.current.set(
        id,
        followExecution(id, (e) => {
          if (e.event === 'execution') {
            const next = (e.data as { execution: ExecutionSummary }).execution;
            setRows((old) => old?.map((r) => (r.id === next.id ? { ...r, ...next } : r)));
          } else if (e.event === 'done') {
            const d = e.data as { status: ExecutionSummary['status'] };
            setRows((old) => old?.map((r) => (r.id === id ? { ...r, status: d.status } : r)));
          }
        }),
      );
    }
  }, [rows]);
  useEffect(() => () => followed.current.forEach((close) => close()), []);

  return (
    <section>
      <h1>Executions</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Status
          <select value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Source
          <select value={source} onChange={(e) => setSource(e.currentTarget.value)}>
            <option value="">any</option>
            {['api', 'super_agent', 'studio', 'skill'].map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Workspace
          <select value={workspace} onChange={(e) => setWorkspace(e.currentTarget.value)}>
            <option value="">all</option>
            {app.workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
      </form>
      <ErrorBox error={error} />
      {rows === undefined && !error ? <Busy /> : null}
      {rows && rows.length === 0 ? (
        <Empty>
          No executions match. Clear the filters, start a demo from the <Link href="/">dashboard</Link> or run
          a command in the <Link href="/studio">Studio</Link>.
        </Empty>
      ) : null}
      {rows && rows.length ? (
        <Table
          headers={[
            'Title',
            'Status',
            { label: 'Progress', class: 'wide' },
            { label: 'Type / source', class: 'wide' },
            { label: 'Updated', class: 'wide' },
          ]}
        >
          {rows.map((r) => (
            <tr key={r.id} data-testid={`row-${r.id}`}>
              <td>
                <Link href={`/executions/${r.id}`}>{r.title || r.id}</Link>
              </td>
              <td>
                <Status status={r.status} />
              </td>
              <td class="wide">
                {r.progress.completedSteps}/{r.progress.totalSteps ?? '?'}
              </td>
              <td class="wide">
                {r.type} · {r.sourceType}
              </td>
              <td class="wide">{when(r.updatedAt)}</td>
            </tr>
          ))}
        </Table>
      ) : null}
    </section>
  );
}
