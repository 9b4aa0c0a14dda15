import { useState } from 'preact/hooks';
import { executions, type Action, type RollbackReport } from '../api/executions';
import { Busy, Empty, ErrorBox, Status, useAction, useLoad, when } from '../components/ui';
import { Link } from '../router';
import { RollbackResult } from './execution';

/** Failed, paused and cancelled executions, with what stopped each and what can be done. */
export function RecoveryPage() {
  const list = useLoad(() => executions.recovery({ limit: 100 }));
  const action = useAction();
  const [report, setReport] = useState<RollbackReport | null>(null);
  const act = async (id: string, a: Exclude<Action, 'pause'>) => {
    const answer = await action.run(() => executions.recover(id, a));
    if (answer) {
      setReport(answer.rollback ?? null);
      await list.reload();
    }
  };
  const rows = list.data?.executions ?? [];
  return (
    <section>
      <h1>Recovery</h1>
      <ErrorBox error={list.error ?? action.error} />
      {list.loading && !list.data ? <Busy /> : null}
      {report ? <RollbackResult report={report} /> : null}
      {list.data && rows.length === 0 ? (
        <Empty>Nothing to recover: no failed, paused or cancelled executions.</Empty>
      ) : null}
      <ul class="cards">
        {rows.map((e) => (
          <li key={e.id} class="card">
            <Link href={`/executions/${e.id}`}>{e.title || e.id}</Link> <Status status={e.status} />
            <p class="muted">
              {e.failure?.whatFailed ?? e.failure?.message} ({e.failure?.code}) · {when(e.failure?.at)}
            </p>
            <div class="row">
              {e.status === 'PAUSED' ? (
                <button onClick={() => void act(e.id, 'resume')}>Resume</button>
              ) : null}
              {e.status !== 'PAUSED' ? <button onClick={() => void act(e.id, 'retry')}>Retry</button> : null}
              {e.status === 'PAUSED' ? (
                <button class="danger" onClick={() => void act(e.id, 'cancel')}>
                  Cancel
                </button>
              ) : null}
              {e.status !== 'PAUSED' ? (
                <button onClick={() => void act(e.id, 'rollback')}>Roll back</button>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
