import { useState } from 'preact/hooks';
import { vault, type Secret, type SubjectType } from '../api/data';
import { Busy, Empty, ErrorBox, Status, useAction, useLoad, when } from '../components/ui';
import { useApp } from '../state';

/** Secrets (values never shown back: masked), assignments to subjects, runtime grants, audit. */
export function VaultPage() {
  const app = useApp();
  const secrets = useLoad(() => vault.list());
  const assignments = useLoad(() => vault.assignments());
  const audit = useLoad(() => vault.audit());
  const action = useAction();
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [assign, setAssign] = useState<{ secretId: string; subjectType: SubjectType; subjectId: string }>({
    secretId: '',
    subjectType: 'skill',
    subjectId: '',
  });
  const [grant, setGrant] = useState<string | null>(null);
  const reloadAll = async () => {
    await Promise.all([secrets.reload(), assignments.reload(), audit.reload()]);
  };

  const create = async (e: Event) => {
    e.preventDefault();
    if (await action.run(() => vault.create(name.trim(), value))) {
      setName('');
      setValue('');
      await reloadAll();
    }
  };
  const [rotating, setRotating] = useState<{ id: string; value: string } | null>(null);
  const act = async (s: Secret, a: 'disable' | 'enable' | 'rotate', value?: string) => {
    if (await action.run(() => vault.act(s.id, a, value))) {
      setRotating(null);
      await reloadAll();
    }
  };
  const addAssignment = async (e: Event) => {
    e.preventDefault();
    if (await action.run(() => vault.assign(assign.secretId, assign.subjectType, assign.subjectId.trim())))
      await reloadAll();
  };
  const tryGrant = async (secretName: string, subjectType: string, subjectId: string) => {
    if (subjectType !== 'skill' && subjectType !== 'app') return;
    const g = await action.run(() => vault.grant(app.workspaceId, secretName, subjectType, subjectId));
    if (g) setGrant(`Granted ${g.grant.name} (${g.grant.id}) until ${when(g.grant.expiresAt)}`);
    await audit.reload();
  };

  const list = secrets.data?.secrets ?? [];
  return (
    <section>
      <h1>Vault</h1>
      <form class="card" onSubmit={create}>
        <h2>New secret</h2>
        <label>
          Name (A-Z, 0-9, _)
          <input
            required
            pattern="[A-Z0-9_]{2,120}"
            value={name}
            onInput={(e) => setName(e.currentTarget.value.toUpperCase())}
          />
        </label>
        <label>
          Value
          <input
            type="password"
            required
            value={value}
            onInput={(e) => setValue(e.currentTarget.value)}
            autoComplete="off"
          />
        </label>
        <button class="primary" type="submit" disabled={action.busy}>
          Store secret
        </button>
      </form>
      <ErrorBox error={secrets.error ?? action.error} />
      {grant ? (
        <p class="notice" role="status">
          {grant}
        </p>
      ) : null}
      {secrets.loading && !secrets.data ? <Busy /> : null}
      {secrets.data && list.length === 0 ? (
        <Empty>No secrets yet: store one above, then assign it to a skill or an app.</Empty>
      ) : null}
      <ul class="cards">
        {list.map((s) => (
          <li key={s.id} class="card">
            <p>
              <strong>{s.name}</strong> <code>{s.maskedValue}</code> <Status status={s.status} />{' '}
              <span class="muted">v{s.version}</span>
            </p>
            <div class="row">
              <button type="button" onClick={() => void act(s, s.status === 'active' ? 'disable' : 'enable')}>
                {s.status === 'active' ? 'Disable' : 'Enable'}
              </button>
              <button type="button" onClick={() => setRotating({ id: s.id, value: '' })}>
                Rotate
              </button>
              <button
                type="button"
                class="danger"
                onClick={() => void action.run(() => vault.remove(s.id)).then((d) => d && reloadAll())}
              >
                Delete
              </button>
            </div>
            {rotating?.id === s.id ? (
              <form
                class="row"
                onSubmit={(e) => {
                  e.preventDefault();
                  void act(s, 'rotate', rotating.value);
                }}
              >
                <label class="grow">
                  New value of {s.name}
                  <input
                    type="password"
                    required
                    autoComplete="off"
                    value={rotating.value}
                    onInput={(e) => setRotating({ id: s.id, value: e.currentTarget.value })}
                    autoFocus
                  />
                </label>
                <button type="submit" class="primary">
                  Rotate
                </button>
                <button type="button" onClick={() => setRotating(null)}>
                  Cancel
                </button>
              </form>
            ) : null}
          </li>
        ))}
      </ul>
      <div class="card">
        <h2>Assignments</h2>
        <form class="row" onSubmit={addAssignment}>
          <select
            required
            value={assign.secretId}
            onChange={(e) => setAssign({ ...assign, secretId: e.currentTarget.value })}
            aria-label="Secret"
          >
            <option value="">secret…</option>
            {list.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
          <select
            value={assign.subjectType}
            onChange={(e) => setAssign({ ...assign, subjectType: e.currentTarget.value as SubjectType })}
            aria-label="Subject type"
          >
            {['skill', 'app', 'agent', 'workflow'].map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
          <input
            required
            placeholder="slug or id"
            value={assign.subjectId}
            onInput={(e) => setAssign({ ...assign, subjectId: e.currentTarget.value })}
            aria-label="Subject id"
          />
          <button type="submit">Assign</button>
        </form>
        <ErrorBox error={assignments.error} />
        {assignments.data?.assignments.length === 0 ? (
          <Empty>No assignments: a skill or app uses a secret only once it is assigned.</Empty>
        ) : null}
        <ul class="plain">
          {(assignments.data?.assignments ?? []).map((a) => (
            <li key={a.id}>
              {a.secretName} → {a.subjectType}:{a.subjectId}{' '}
              {a.subjectType === 'skill' || a.subjectType === 'app' ? (
                <button type="button" onClick={() => void tryGrant(a.secretName, a.subjectType, a.subjectId)}>
                  Test a runtime grant
                </button>
              ) : null}{' '}
              <button
                type="button"
                class="danger"
                onClick={() => void action.run(() => vault.unassign(a)).then((d) => d && reloadAll())}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div class="card">
        <h2>Audit</h2>
        <ErrorBox error={audit.error} />
        {audit.data?.entries.length === 0 ? <Empty>Nothing audited yet.</Empty> : null}
        <ul class="plain audit">
          {(audit.data?.entries ?? []).map((a, i) => (
            <li key={a.id ?? i}>
              <span class="muted">{when(a.at ?? a.createdAt)}</span> {a.event} {a.secretName ?? ''}{' '}
              {a.reason ? `(${a.reason})` : ''}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
