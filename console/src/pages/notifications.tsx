import { useState } from 'preact/hooks';
import { notifications, type Notification } from '../api/account';
import { Busy, Empty, ErrorBox, useAction, useLoad, when } from '../components/ui';
import { Link } from '../router';
import { useApp } from '../state';

export function NotificationsPage() {
  const app = useApp();
  const [status, setStatus] = useState<'' | Notification['status']>('');
  const list = useLoad(() => notifications.list(status || undefined), [status, app.unread]);
  const action = useAction();
  const set = async (n: Notification, next: Notification['status']) => {
    if (await action.run(() => notifications.set(n.id, next))) {
      await list.reload();
      await app.refreshUnread();
    }
  };
  const allRead = async () => {
    if (await action.run(() => notifications.markAllRead())) {
      await list.reload();
      await app.refreshUnread();
    }
  };
  const rows = (list.data?.notifications ?? []).filter((n) => status || n.status !== 'archived');
  return (
    <section>
      <h1>Notifications</h1>
      <div class="row">
        <label>
          Show
          <select
            value={status}
            onChange={(e) => setStatus(e.currentTarget.value as '' | Notification['status'])}
          >
            <option value="">unread and read</option>
            <option value="unread">unread</option>
            <option value="read">read</option>
            <option value="archived">archived</option>
          </select>
        </label>
        <button type="button" onClick={() => void allRead()} disabled={action.busy || app.unread === 0}>
          Mark all read
        </button>
      </div>
      <ErrorBox error={list.error ?? action.error} />
      {list.loading && !list.data ? <Busy /> : null}
      {list.data && rows.length === 0 ? (
        <Empty>No notifications here. Actions on executions, panics and failures appear here.</Empty>
      ) : null}
      <ul class="cards">
        {rows.map((n) => (
          <li key={n.id} class={`card notif ${n.status}`}>
            <p>
              <strong>{n.title}</strong> <span class="tag">{n.type}</span>{' '}
              <span class="muted">{when(n.createdAt)}</span>
            </p>
            {n.body ? <p>{n.body}</p> : null}
            <div class="row">
              {n.executionId ? <Link href={`/executions/${n.executionId}`}>Open the execution</Link> : null}
              {n.status === 'unread' ? (
                <button type="button" onClick={() => void set(n, 'read')}>
                  Mark read
                </button>
              ) : (
                <button type="button" onClick={() => void set(n, 'unread')}>
                  Mark unread
                </button>
              )}
              {n.status !== 'archived' ? (
                <button type="button" onClick={() => void set(n, 'archived')}>
                  Archive
                </button>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
