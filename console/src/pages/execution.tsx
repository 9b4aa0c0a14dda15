import { useEffect, useRef, useState } from 'preact/hooks';
import {
  executions,
  type Action,
  type Execution,
  type LogLine,
  type RollbackReport,
  type Step,
} from '../api/executions';
import { followExecution } from '../api/sse';
import { Busy, ErrorBox, Json, Status, useAction, when } from '../components/ui';
import { Link } from '../router';

/** Which actions the state table allows (docs/executions.md), so only those are offered. */
function allowed(e: Execution): Action[] {
  if (e.status === 'PAUSED' && e.hold) return ['resume', 'cancel'];
  switch (e.status) {
    case 'QUEUED':
    case 'RUNNING':
      return ['pause', 'cancel'];
    case 'PAUSED':
      return ['resume', 'cancel'];
    case 'COMPLETED':
      return ['pause', 'rollback'];
    case 'FAILED':
    case 'CANCELLED':
      return ['retry', 'pause', 'rollback'];
  }
}

export function ExecutionPage({ id }: { id: string }) {
  const [execution, setExecution] = useState<Execution | undefined>(undefined);
  const [logs, setLogs] = useState<LogLine[]>([]);
  const [live, setLive] = useState<'connecting' | 'live' | 'ended'>('connecting');
  const [streamError, setStreamError] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [rollback, setRollback] = useState<RollbackReport | null>(null);
  const action = useAction();
  const logEnd = useRef<HTMLLIElement>(null);

  useEffect(() => {
    setExecution(undefined);
    setLogs([]);
    executions.get(id).then((answer) => {
      setExecution(answer.execution);
      setLogs(answer.logs);
    }, setLoadError);
  }, [id]);

  // Live: steps, logs and state changes as they happen. The stream ends at `done`; an action
  // that starts the work again (resume, retry) opens a new one.
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    setLive('connecting');
    return followExecution(
      id,
      (e) => {
        setLive('live');
        if (e.event === 'execution') {
          const next = (e.data as { execution: Execution }).execution;
          setExecution((old) => ({ ...(old ?? next), ...next, steps: old?.steps ?? [] }));
        } else if (e.event === 'step') {
          const step = (e.data as { step: Step }).step;
          setExecution((old) =>
            old
              ? {
                  ...old,
                  steps: [...old.steps.filter((s) => s.index !== step.index), step].sort(
                    (a, b) => a.index - b.index,
                  ),
                }
              : old,
          );
        } else if (e.event === 'log') {
          const line = (e.data as { log: LogLine }).log;
          setLogs((old) => (old.some((l) => l.seq === line.seq) ? old : [...old, line]));
        } else if (e.event === 'error') {
          setStreamError(`${String(e.data.error)} (${String(e.data.code)})`);
        } else if (e.event === 'done') {
          setLive('ended');
          void executions.get(id).then((a) => setExecution(a.execution), setLoadError);
        }
      },
      () => setLive('ended'),
    );
  }, [id, generation]);

  useEffect(() => logEnd.current?.scrollIntoView?.({ block: 'nearest' }), [logs.length]);

  const act = async (a: Action) => {
    const answer = await action.run(() => executions.act(id, a));
    if (!answer) return;
    setExecution(answer.execution);
    setRollback(answer.rollback ?? null);
    setStreamError(null);
    if (a === 'resume' || a === 'retry') setGeneration((g) => g + 1);
  };

  if (loadError) return <ErrorBox error={loadError} />;
  if (!execution) return <Busy />;
  const total = execution.progress.totalSteps;
  const pct = total ? Math.round((100 * execution.progress.completedSteps) / total) : null;
  return (
    <section>
      <p>
        <Link href="/executions">← Executions</Link>
      </p>
      <h1>{execution.title || execution.id}</h1>
      <p>
        <Status status={execution.status} />{' '}
        {execution.hold ? <span class="muted">(held, was {execution.hold.previousStatus})</span> : null}{' '}
        <span class="muted">
          {execution.type} · {execution.id} · <span data-testid="live-state">{live}</span>
        </span>
      </p>
      <p class="progress">
        <progress max={total ?? 1} value={total ? execution.progress.completedSteps : undefined} />{' '}
        {execution.progress.completedSteps} of {total ?? '?'} steps{pct !== null ? ` (${pct}%)` : ''}
      </p>
      {execution.failure ? (
        <p class="error">
          {execution.failure.whatFailed ?? 'Stopped'}: {execution.failure.message} ({execution.failure.code})
        </p>
      ) : null}
      {streamError ? (
        <p class="error" role="alert">
          {streamError}
        </p>
      ) : null}
      <div class="row actions">
        {allowed(execution).map((a) => (
          <button
            key={a}
            type="button"
            disabled={action.busy}
            class={a === 'cancel' ? 'danger' : ''}
            onClick={() => void act(a)}
          >
            {a[0].toUpperCase() + a.slice(1)}
          </button>
        ))}
      </div>
      <ErrorBox error={action.error} />
      {rollback ? <RollbackResult report={rollback} /> : null}
      <div class="grid two">
        <div>
          <h2>Steps</h2>
          <ol class="steps">
            {execution.steps.map((s) => (
              <li key={s.index}>
                <Status status={s.status} /> {s.name}{' '}
                {s.attempts > 1 ? <span class="muted">({s.attempts} attempts)</span> : null}
                {s.effects.length ? (
                  <ul class="effects">
                    {s.effects.map((f, i) => (
                      <li key={i}>
                        {f.kind} → {f.target} {f.undone ? <em>(undone)</em> : null}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ol>
          {execution.result !== undefined ? (
            <>
              <h2>Result</h2>
              <Json value={execution.result} />
            </>
          ) : null}
        </div>
        <div>
          <h2>Logs</h2>
          <ol class="logs" aria-live="polite" data-testid="logs">
            {logs.map((l) => (
              <li key={l.seq} class={`log-${l.level}`}>
                <span class="muted">{when(l.at)}</span> {l.message}
              </li>
            ))}
            <li ref={logEnd} class="sr-only">
              end of logs
            </li>
          </ol>
        </div>
      </div>
    </section>
  );
}

export function RollbackResult({ report }: { report: RollbackReport }) {
  return (
    <div class="card" data-testid="rollback">
      <h2>Rollback</h2>
      <h3>Undone ({report.undone.length})</h3>
      <ul>
        {report.undone.map((u, i) => (
          <li key={i}>
            step {u.step + 1}: {u.kind} → {u.target}
          </li>
        ))}
      </ul>
      <h3>Not undone ({report.notUndone.length})</h3>
      <ul>
        {report.notUndone.map((n, i) => (
          <li key={i}>
            step {n.effect.step + 1}: {n.effect.kind} → {n.effect.target}: <em>{n.reason}</em>
          </li>
        ))}
      </ul>
    </div>
  );
}
