import { useState } from 'preact/hooks';
import { agents } from '../api/account';
import { Busy, Empty, ErrorBox, Status, useAction, useLoad } from '../components/ui';

/** Deployed agents and subagents; a new agent's key is shown once. */
export function AgentsPage() {
  const list = useLoad(() => agents.list());
  const action = useAction();
  const [name, setName] = useState('');
  const [parent, setParent] = useState('');
  const [key, setKey] = useState<{ name: string; apiKey: string } | null>(null);
  const create = async (e: Event) => {
    e.preventDefault();
    const done = await action.run(() => agents.create(name.trim(), parent));
    if (done) {
      setKey({ name: done.agent.name, apiKey: done.apiKey });
      setName('');
      await list.reload();
    }
  };
  const rows = list.data?.agents ?? [];
  return (
    <section>
      <h1>Agents</h1>
      {key ? (
        <div class="card reveal" role="alert">
          <h2>Key of “{key.name}”: copy it now</h2>
          <input
            readOnly
            value={key.apiKey}
            aria-label="Agent key"
            onFocus={(e) => e.currentTarget.select()}
          />
          <button type="button" class="primary" onClick={() => setKey(null)}>
            I stored it: hide
          </button>
        </div>
      ) : null}
      <form class="card" onSubmit={create}>
        <h2>Deploy an agent</h2>
        <label>
          Name
          <input required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          Parent (makes a subagent, never stronger than its parent)
          <select value={parent} onChange={(e) => setParent(e.currentTarget.value)}>
            <option value="">none (top-level agent)</option>
            {rows.map((a) => (
              <option key={a.agentRef} value={a.agentRef}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <button class="primary" type="submit" disabled={action.busy}>
          Deploy
        </button>
      </form>
      <ErrorBox error={list.error ?? action.error} />
      {list.loading && !list.data ? <Busy /> : null}
      {list.data && rows.length === 0 ? <Empty>No agents yet: deploy one above.</Empty> : null}
      <ul class="cards">
        {rows.map((a) => (
          <li key={a.agentRef} class="card">
            <strong>{a.name}</strong> {a.isSubagent ? <span class="tag">subagent</span> : null}{' '}
            <Status status={a.status} /> <code class="muted">{a.agentRef}</code>{' '}
            <button
              type="button"
              onClick={() =>
                void action
                  .run(() => agents.setStatus(a.agentRef, a.status === 'active' ? 'disabled' : 'active'))
                  .then((d) => d && list.reload())
              }
            >
              {a.status === 'active' ? 'Disable' : 'Enable'}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
