import { useState } from 'preact/hooks';
import { workspaces } from '../api/account';
import { Busy, Empty, ErrorBox, useAction, useLoad } from '../components/ui';
import { useApp } from '../state';

export function WorkspacesPage() {
  const app = useApp();
  const action = useAction();
  const [name, setName] = useState('');
  const received = useLoad(() => workspaces.received());
  const create = async (e: Event) => {
    e.preventDefault();
    if (await action.run(() => workspaces.create(name.trim()))) {
      setName('');
      await app.refreshWorkspaces();
    }
  };
  const answer = async (id: string, accept: boolean) => {
    if (await action.run(() => workspaces.answer(id, accept))) {
      await received.reload();
      await app.refreshWorkspaces();
    }
  };
  return (
    <section>
      <h1>Workspaces</h1>
      <form class="card row" onSubmit={create}>
        <label class="grow">
          New workspace
          <input required maxLength={120} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <button class="primary" type="submit" disabled={action.busy}>
          Create
        </button>
      </form>
      <ErrorBox error={action.error} />
      {(received.data?.invitations ?? []).length ? (
        <div class="card">
          <h2>Invitations for you</h2>
          <ul class="plain">
            {received.data!.invitations.map((i) => (
              <li key={i.id}>
                {i.workspace.name} from {i.invitedBy.email ?? 'an account'} as {i.role}{' '}
                <button type="button" class="primary" onClick={() => void answer(i.id, true)}>
                  Accept
                </button>{' '}
                <button type="button" onClick={() => void answer(i.id, false)}>
                  Decline
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <ul class="cards">
        {app.workspaces.map((w) => (
          <li key={w.id} class="card">
            <Members id={w.id} name={w.name} owned={w.owned} isDefault={w.isDefault} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function Members(props: { id: string; name: string; owned: boolean; isDefault: boolean }) {
  const detail = useLoad(() => workspaces.get(props.id), [props.id]);
  const action = useAction();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'member' | 'admin'>('member');
  const invite = async (e: Event) => {
    e.preventDefault();
    if (await action.run(() => workspaces.invite(props.id, email.trim(), role))) {
      setEmail('');
      await detail.reload();
    }
  };
  return (
    <>
      <h2>
        {props.name} {props.isDefault ? <span class="tag">default</span> : null}{' '}
        {props.owned ? <span class="tag">owner</span> : null}
      </h2>
      <ErrorBox error={detail.error ?? action.error} />
      {detail.loading && !detail.data ? <Busy /> : null}
      <ul class="plain">
        {(detail.data?.members ?? []).map((m, i) => (
          <li key={m.id ?? i}>
            {m.email ?? m.name ?? m.agentRef}{' '}
            <span class="muted">
              ({m.kind}, {m.role})
            </span>{' '}
            {props.owned && m.id ? (
              <button
                type="button"
                class="danger"
                onClick={() =>
                  void action
                    .run(() => workspaces.removeMember(props.id, m.id!))
                    .then((d) => d && detail.reload())
                }
              >
                Remove
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {detail.data?.invitations?.length ? (
        <p class="muted">Pending: {detail.data.invitations.map((i) => i.email ?? i.agentRef).join(', ')}</p>
      ) : null}
      {props.owned ? (
        <form class="row" onSubmit={invite}>
          <input
            type="email"
            required
            placeholder="email to invite"
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
            aria-label="Email to invite"
          />
          <select
            value={role}
            onChange={(e) => setRole(e.currentTarget.value as 'member' | 'admin')}
            aria-label="Role"
          >
            <option>member</option>
            <option>admin</option>
          </select>
          <button type="submit">Invite</button>
        </form>
      ) : detail.data && detail.data.members.length === 0 ? (
        <Empty>No members listed.</Empty>
      ) : null}
    </>
  );
}
