import { useState } from 'preact/hooks';
import { executions, type PanicAnswer } from '../api/executions';
import { Confirm, ErrorBox, useAction, when } from '../components/ui';
import { Link } from '../router';
import { useApp } from '../state';

/**
 * The panic button of the workspace in view: a deliberate confirm (type PANIC), then every active
 * execution is cancelled and the workspace locked down until lifted here.
 */
export function PanicPage() {
  const app = useApp();
  const [asking, setAsking] = useState(false);
  const [answer, setAnswer] = useState<PanicAnswer | null>(null);
  const action = useAction();
  const workspace = app.workspaces.find((w) => w.id === app.workspaceId);

  const press = async () => {
    setAsking(false);
    const a = await action.run(() => executions.panic(app.workspaceId));
    if (a) setAnswer(a);
    await app.refreshLockdown();
    await app.refreshUnread();
  };
  const lift = async () => {
    if (await action.run(() => executions.lift(app.workspaceId))) {
      setAnswer(null);
      await app.refreshLockdown();
      await app.refreshUnread();
    }
  };

  return (
    <section>
      <h1>Panic button</h1>
      <p>
        Workspace: <strong>{workspace?.name ?? app.workspaceId}</strong>
      </p>
      {app.lockdown.active ? (
        <div class="card">
          <p data-testid="lockdown-state">
            <strong>Locked down</strong> since {when(app.lockdown.since)}: tool calls, new executions, resumes
            and retries are refused in this workspace.
          </p>
          <button type="button" class="primary" disabled={action.busy} onClick={() => void lift()}>
            Lift the lockdown
          </button>
        </div>
      ) : (
        <div class="card">
          <p>
            Pressing panic cancels every queued, running and paused execution of this workspace at once, stops
            their tool calls on every node, and locks the workspace down until you lift it.
          </p>
          <button
            type="button"
            class="danger big"
            disabled={action.busy || !app.workspaceId}
            onClick={() => setAsking(true)}
          >
            Panic
          </button>
        </div>
      )}
      <ErrorBox error={action.error} />
      {answer ? (
        <div class="card" role="status" data-testid="panic-result">
          <h2>
            Stopped {answer.stopped} execution{answer.stopped === 1 ? '' : 's'}
          </h2>
          <ul>
            {answer.executions.map((e) => (
              <li key={e.id}>
                <Link href={`/executions/${e.id}`}>{e.id}</Link>: {e.status}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {asking ? (
        <Confirm
          title="Panic: stop everything in this workspace?"
          confirmLabel="Stop everything"
          danger
          typed="PANIC"
          onCancel={() => setAsking(false)}
          onConfirm={() => void press()}
        >
          <p>
            Every active execution of <strong>{workspace?.name}</strong> is cancelled and the workspace is
            locked down. Cancelled executions stay cancelled (a retry runs them again after the lift).
          </p>
        </Confirm>
      ) : null}
    </section>
  );
}
