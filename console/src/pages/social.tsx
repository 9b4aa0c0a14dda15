import { useState } from 'preact/hooks';
import { social, type Draft, type PublishStatus, type QueueItem } from '../api/social';
import { Busy, Empty, ErrorBox, Status, useAction, useLoad, when } from '../components/ui';
import { Link } from '../router';

const QUEUE_FILTERS: ('' | PublishStatus)[] = ['', 'queued', 'published', 'failed', 'canceled'];

/**
 * The social connector (docs/social.md): platforms, connecting X (the browser goes to X and comes
 * back here), drafts with their guardrail verdict and reasons, approve or reject, the publishing
 * queue with cancel and publish now. Nothing is posted without a person approving it.
 */
export function SocialPage() {
  const platforms = useLoad(() => social.platforms());
  const accounts = useLoad(() => social.accounts());
  const drafts = useLoad(() => social.drafts());
  const [filter, setFilter] = useState<'' | PublishStatus>('');
  const queue = useLoad(() => social.queue(filter || undefined), [filter]);
  const action = useAction();
  const [text, setText] = useState('');
  const [accountId, setAccountId] = useState('');
  const [notice, setNotice] = useState('');

  const reloadAll = async () => {
    await Promise.all([accounts.reload(), drafts.reload(), queue.reload(), platforms.reload()]);
  };
  const connect = async () => {
    const answer = await action.run(() => social.connect('/social'));
    if (answer) location.assign(answer.authorizationUrl);
  };
  const disconnect = async (id: string) => {
    if (await action.run(() => social.disconnect(id))) await reloadAll();
  };
  const xAccounts = accounts.data?.accounts ?? [];
  const chosen = accountId || xAccounts[0]?.id || '';
  const compose = async (e: Event) => {
    e.preventDefault();
    const answer = await action.run(() => social.draft(chosen, text));
    if (answer) {
      setText('');
      setNotice(`Draft saved: guardrails say ${answer.draft.guardrail_status}.`);
      await drafts.reload();
    }
  };
  const decide = async (d: Draft, approve: boolean) => {
    const done = await action.run(() => (approve ? social.approve(d.id) : social.reject(d.id)));
    if (done) {
      setNotice(approve ? 'Approved: queued for publishing.' : 'Rejected.');
      await Promise.all([drafts.reload(), queue.reload()]);
    }
  };
  const cancel = async (q: QueueItem) => {
    if (await action.run(() => social.cancel(q.id))) await queue.reload();
  };
  const publishNow = async (q: QueueItem) => {
    const done = await action.run(() => social.publishNow(q.id));
    if (done) {
      setNotice(`Published: post ${done.postId}.`);
      await queue.reload();
    }
  };

  return (
    <section>
      <h1>Social</h1>
      <ErrorBox error={action.error ?? platforms.error ?? accounts.error ?? drafts.error ?? queue.error} />
      {notice ? (
        <p class="notice" role="status">
          {notice}
        </p>
      ) : null}

      <h2>Platforms</h2>
      {platforms.loading && !platforms.data ? <Busy /> : null}
      <ul class="cards">
        {(platforms.data?.platforms ?? []).map((p) => (
          <li key={p.id} class="card">
            <strong>{p.id}</strong> <Status status={p.status} />{' '}
            <span class="muted">{p.connectedCount} connected</span>
            {p.id === 'x' ? (
              <div class="row">
                <button
                  type="button"
                  onClick={() => void connect()}
                  disabled={action.busy || !p.connectorReady}
                >
                  Connect an X account
                </button>
                {!p.connectorReady ? (
                  <span class="muted">Set X_CLIENT_ID and X_CLIENT_SECRET first.</span>
                ) : null}
              </div>
            ) : null}
          </li>
        ))}
      </ul>

      <h2>X accounts</h2>
      {accounts.data && xAccounts.length === 0 ? (
        <Empty>No X account yet: connect one above, then write a draft.</Empty>
      ) : null}
      <ul class="cards">
        {xAccounts.map((a) => (
          <li key={a.id} class="card">
            <strong>@{a.username}</strong> <Status status={a.status} />{' '}
            <button type="button" onClick={() => void disconnect(a.id)} disabled={action.busy}>
              Disconnect
            </button>
          </li>
        ))}
      </ul>

      {xAccounts.length > 0 ? (
        <form class="card" onSubmit={(e) => void compose(e)}>
          <h2>Write a draft</h2>
          {xAccounts.length > 1 ? (
            <label>
              Account
              <select value={chosen} onChange={(e) => setAccountId(e.currentTarget.value)}>
                {xAccounts.map((a) => (
                  <option key={a.id} value={a.id}>
                    @{a.username}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <label>
            Text
            <textarea value={text} rows={3} onInput={(e) => setText(e.currentTarget.value)} />
          </label>
          <button type="submit" disabled={action.busy || !text.trim()}>
            Save draft
          </button>
        </form>
      ) : null}

      <h2>Drafts awaiting review</h2>
      {drafts.data && drafts.data.drafts.length === 0 ? (
        <Empty>No draft waits for review. People and agents (the social_draft tool) add them.</Empty>
      ) : null}
      <ul class="cards">
        {(drafts.data?.drafts ?? []).map((d) => (
          <li key={d.id} class="card draft">
            <p>{d.text}</p>
            <p>
              Guardrails: <Status status={d.guardrail_status} />{' '}
              <span class="muted">
                {d.weighted_length}/280 · similarity {d.similarity_score.toFixed(2)} · {d.createdBy} ·{' '}
                {when(d.createdAt)}
              </span>
            </p>
            {d.guardrail_reasons.length > 0 ? (
              <ul class="reasons">
                {d.guardrail_reasons.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ul>
            ) : null}
            <div class="row">
              <button
                type="button"
                onClick={() => void decide(d, true)}
                disabled={action.busy || d.guardrail_status === 'block'}
              >
                Approve
              </button>
              <button type="button" onClick={() => void decide(d, false)} disabled={action.busy}>
                Reject
              </button>
            </div>
          </li>
        ))}
      </ul>

      <h2>Publishing queue</h2>
      <label>
        Show
        <select value={filter} onChange={(e) => setFilter(e.currentTarget.value as '' | PublishStatus)}>
          {QUEUE_FILTERS.map((f) => (
            <option key={f} value={f}>
              {f || 'all'}
            </option>
          ))}
        </select>
      </label>
      {queue.data && queue.data.queue.length === 0 ? (
        <Empty>Nothing queued. Approve a draft to queue it.</Empty>
      ) : null}
      <ul class="cards">
        {(queue.data?.queue ?? []).map((q) => (
          <li key={q.id} class="card queue-item">
            <p>{q.text}</p>
            <p>
              <Status status={q.publish_status} /> <span class="muted">@{q.account.username}</span>{' '}
              <span class="muted">due {when(q.scheduled_for)}</span>
              {q.attempts ? <span class="muted"> · {q.attempts} attempt(s)</span> : null}
            </p>
            {q.reason ? <p class="error-text">{q.reason}</p> : null}
            {q.postId ? <p class="muted">Post {q.postId}</p> : null}
            <div class="row">
              {q.executionId ? <Link href={`/executions/${q.executionId}`}>Open the execution</Link> : null}
              {q.publish_status === 'queued' ? (
                <>
                  <button type="button" onClick={() => void publishNow(q)} disabled={action.busy}>
                    Publish now
                  </button>
                  <button type="button" onClick={() => void cancel(q)} disabled={action.busy}>
                    Cancel
                  </button>
                </>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
