import { useState } from 'preact/hooks';
import { executions } from '../api/executions';
import { ErrorBox, useAction } from '../components/ui';
import { navigate } from '../router';
import { useApp } from '../state';

/** A `DEMO_STEPS` execution (docs/executions.md): steps with a delay, to watch, pause and resume. */
export function DemoLauncher() {
  const app = useApp();
  const [steps, setSteps] = useState(5);
  const [delay, setDelay] = useState(1500);
  const action = useAction();
  const start = async (e: Event) => {
    e.preventDefault();
    // mem_set steps record undoable effects; the last one an effect nothing can undo, so a
    // rollback shows both lists.
    const demoSteps: unknown[] = Array.from({ length: steps }, (_, i) => ({
      op: 'mem_set',
      key: `demo-${i + 1}`,
      value: { step: i + 1 },
      name: `write demo-${i + 1}`,
    }));
    demoSteps.push({ op: 'effect', kind: 'email_sent', target: 'ops@example.com', name: 'send the report' });
    const answer = await action.run(() =>
      request(`Demo: ${steps + 1} steps`, demoSteps, delay, app.workspaceId),
    );
    if (answer) navigate(`/executions/${answer.execution.id}`);
  };
  return (
    <form onSubmit={start}>
      <div class="row">
        <label>
          Steps
          <input
            type="number"
            min={1}
            max={50}
            value={steps}
            onInput={(e) => setSteps(Number(e.currentTarget.value))}
          />
        </label>
        <label>
          Delay per step (ms)
          <input
            type="number"
            min={0}
            max={60000}
            step={100}
            value={delay}
            onInput={(e) => setDelay(Number(e.currentTarget.value))}
          />
        </label>
      </div>
      <ErrorBox error={action.error} />
      <button type="submit" class="primary" disabled={action.busy}>
        {action.busy ? 'Starting…' : 'Start demo'}
      </button>
    </form>
  );
}

function request(title: string, steps: unknown[], delayMs: number, workspaceId: string) {
  return executions.create({
    title,
    type: 'DEMO_STEPS',
    input: { steps, delayMs },
    workspaceId: workspaceId || undefined,
  });
}
