import { useState } from 'preact/hooks';
import { tokens, TOKEN_SCOPES, type BearerToken, type TokenScope } from '../api/account';
import { Busy, Empty, ErrorBox, Status, Table, useAction, useLoad, when } from '../components/ui';
import { OneTimeReveal } from '../components/reveal';

/**
 * Named bearer tokens: the value is shown once (create, rotate) and only kept in this component's
 * memory until dismissed; the list shows masked values only.
 */
export function TokensPage() {
  const list = useLoad(() => tokens.list());
  const action = useAction();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<TokenScope[]>([]);
  const [revealed, setRevealed] = useState<{ name: string; value: string } | null>(null);

  const create = async (e: Event) => {
    e.preventDefault();
    const answer = await action.run(() => tokens.create(name.trim(), scopes));
    if (answer) {
      setRevealed({ name: answer.token.name, value: answer.bearerToken });
      setName('');
      setScopes([]);
      await list.reload();
    }
  };
  const rotate = async (t: BearerToken) => {
    const answer = await action.run(() => tokens.rotate(t.id));
    if (answer) {
      setRevealed({ name: t.name, value: answer.bearerToken });
      await list.reload();
    }
  };
  const revoke = async (t: BearerToken) => {
    if (await action.run(() => tokens.revoke(t.id))) await list.reload();
  };
  const toggle = (s: TokenScope) =>
    setScopes((old) => (old.includes(s) ? old.filter((x) => x !== s) : [...old, s]));

  return (
    <section>
      <h1>Bearer tokens</h1>
      {revealed ? (
        <OneTimeReveal
          name={revealed.name}
          value={revealed.value}
          label="Token value"
          hint="Store it somewhere safe."
          testId="token"
          onHide={() => setRevealed(null)}
        />
      ) : null}
      <form class="card" onSubmit={create}>
        <h2>New token</h2>
        <label>
          Name
          <input
            name="tokenName"
            required
            maxLength={100}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </label>
        <fieldset>
          <legend>Scopes (none = everything the account may do)</legend>
          {TOKEN_SCOPES.map((s) => (
            <label key={s} class="inline">
              <input type="checkbox" checked={scopes.includes(s)} onChange={() => toggle(s)} /> {s}
            </label>
          ))}
        </fieldset>
        <button type="submit" class="primary" disabled={action.busy}>
          Create token
        </button>
      </form>
      <ErrorBox error={list.error ?? action.error} />
      {list.loading && !list.data ? <Busy /> : null}
      {list.data && list.data.tokens.length === 0 ? (
        <Empty>No tokens yet: create one above for a script or an SDK.</Empty>
      ) : null}
      {list.data && list.data.tokens.length ? (
        <Table headers={['Name', 'Value', 'Scopes', 'Status', 'Last used', 'Actions']}>
          {list.data.tokens.map((t) => (
            <tr key={t.id} data-testid={`token-${t.name}`}>
              <td>{t.name}</td>
              <td>
                <code data-testid="masked">{t.maskedToken}</code>
              </td>
              <td>{t.scopes.length ? t.scopes.join(', ') : 'all'}</td>
              <td>
                <Status status={t.status} />
              </td>
              <td>{when(t.lastUsedAt)}</td>
              <td>
                {t.status === 'live' ? (
                  <div class="row">
                    <button type="button" onClick={() => void rotate(t)}>
                      Rotate
                    </button>
                    <button type="button" class="danger" onClick={() => void revoke(t)}>
                      Revoke
                    </button>
                  </div>
                ) : (
                  <span class="muted">revoked {when(t.revokedAt)}</span>
                )}
              </td>
            </tr>
          ))}
        </Table>
      ) : null}
    </section>
  );
}
