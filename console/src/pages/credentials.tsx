import { useState } from 'preact/hooks';
import { credentials, SDK_SCOPES, type RuntimeCredential, type SdkScope } from '../api/connectors';
import { Busy, Confirm, Empty, ErrorBox, Status, Table, useAction, useLoad, when } from '../components/ui';
import { OneTimeReveal } from '../components/reveal';
import { useApp } from '../state';

/**
 * Runtime credentials (`sdk_…`, docs/vault.md): what an app or skill runtime presents to consume a
 * vault grant. The value is shown once, right after creation, and kept only in this component's
 * memory until dismissed; the list shows masked values only.
 */
export function CredentialsPage() {
  const app = useApp();
  const list = useLoad(() => credentials.list());
  const action = useAction();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<SdkScope[]>([]);
  const [workspaceId, setWorkspaceId] = useState('');
  const [expires, setExpires] = useState('');
  const [revealed, setRevealed] = useState<{ name: string; value: string } | null>(null);
  const [revoking, setRevoking] = useState<RuntimeCredential | null>(null);

  const create = async (e: Event) => {
    e.preventDefault();
    const answer = await action.run(() =>
      credentials.create({
        name: name.trim(),
        ...(scopes.length ? { scopes } : {}),
        ...(workspaceId ? { workspaceId } : {}),
        // datetime-local is the browser's local time without an offset: the API wants one.
        ...(expires ? { expiresAt: new Date(expires).toISOString() } : {}),
      }),
    );
    if (answer) {
      setRevealed({ name: answer.credential.name, value: answer.value });
      setName('');
      setScopes([]);
      setExpires('');
      await list.reload();
    }
  };
  const revoke = async (c: RuntimeCredential) => {
    setRevoking(null);
    if (await action.run(() => credentials.revoke(c.id))) await list.reload();
  };
  const toggle = (s: SdkScope) =>
    setScopes((old) => (old.includes(s) ? old.filter((x) => x !== s) : [...old, s]));
  const workspaceName = (id: string | null) =>
    id ? (app.workspaces.find((w) => w.id === id)?.name ?? id) : 'any';

  const rows = list.data?.credentials ?? [];
  return (
    <section>
      <h1>Runtime credentials</h1>
      <p class="muted">
        An app or skill runtime sends one as <code>Authorization: Bearer sdk_…</code> to consume the one-use
        vault grants it was given. It opens nothing else.
      </p>
      {revealed ? (
        <OneTimeReveal
          name={revealed.name}
          value={revealed.value}
          label="Credential value"
          hint="Store it with the runtime that will use it."
          testId="credential"
          onHide={() => setRevealed(null)}
        />
      ) : null}
      <form class="card" onSubmit={create}>
        <h2>New runtime credential</h2>
        <label>
          Name
          <input required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <fieldset>
          <legend>Scopes (none = all of them)</legend>
          {SDK_SCOPES.map((s) => (
            <label key={s} class="inline">
              <input type="checkbox" checked={scopes.includes(s)} onChange={() => toggle(s)} /> {s}
            </label>
          ))}
        </fieldset>
        <label>
          Workspace
          <select value={workspaceId} onChange={(e) => setWorkspaceId(e.currentTarget.value)}>
            <option value="">Any workspace of the account</option>
            {app.workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Expires (optional)
          <input type="datetime-local" value={expires} onInput={(e) => setExpires(e.currentTarget.value)} />
        </label>
        <button type="submit" class="primary" disabled={action.busy}>
          Create credential
        </button>
        <ErrorBox error={action.error} />
      </form>
      <ErrorBox error={list.error} />
      {list.loading && !list.data ? <Busy /> : null}
      {list.data && rows.length === 0 ? (
        <Empty>No runtime credentials yet: create one above for an app or skill runtime.</Empty>
      ) : null}
      {rows.length ? (
        <Table
          headers={['Name', 'Value', 'Scopes', 'Workspace', 'Status', 'Expires', 'Last used', 'Actions']}
        >
          {rows.map((c) => (
            <tr key={c.id} data-testid={`credential-${c.name}`}>
              <td>{c.name}</td>
              <td>
                <code data-testid="masked">{c.maskedValue}</code>
              </td>
              <td>{c.scopes.join(', ')}</td>
              <td>{workspaceName(c.workspaceId)}</td>
              <td>
                <Status status={c.status} />
              </td>
              <td>{c.expiresAt ? when(c.expiresAt) : 'never'}</td>
              <td>{when(c.lastUsedAt)}</td>
              <td>
                {c.status === 'active' ? (
                  <button type="button" class="danger" onClick={() => setRevoking(c)}>
                    Revoke
                  </button>
                ) : (
                  <span class="muted">revoked {when(c.revokedAt)}</span>
                )}
              </td>
            </tr>
          ))}
        </Table>
      ) : null}
      {revoking ? (
        <Confirm
          title={`Revoke ${revoking.name}?`}
          confirmLabel="Revoke"
          danger
          onCancel={() => setRevoking(null)}
          onConfirm={() => void revoke(revoking)}
        >
          <p>Runtimes using it are refused from now on. This cannot be undone.</p>
        </Confirm>
      ) : null}
    </section>
  );
}
