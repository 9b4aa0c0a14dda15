import { useState } from 'preact/hooks';
import { memory, type Visibility } from '../api/data';
import { Busy, Empty, ErrorBox, Json, useAction, useLoad, when } from '../components/ui';

export function MemoryPage() {
  const [search, setSearch] = useState('');
  const list = useLoad(() => memory.list(search || undefined), [search]);
  const action = useAction();
  const [key, setKey] = useState('');
  const [content, setContent] = useState('');
  const [visibility, setVisibility] = useState<Visibility>('private');

  const save = async (e: Event) => {
    e.preventDefault();
    const done = await action.run(async () => {
      let value: unknown = content;
      try {
        value = JSON.parse(content);
      } catch {
        // Not JSON: kept as the text typed.
      }
      return memory.put(key.trim(), value, visibility);
    });
    if (done) {
      setKey('');
      setContent('');
      await list.reload();
    }
  };
  const entries = list.data?.entries ?? [];
  return (
    <section>
      <h1>Memory</h1>
      <form class="card" onSubmit={save}>
        <h2>Remember something</h2>
        <label>
          Key
          <input required value={key} onInput={(e) => setKey(e.currentTarget.value)} />
        </label>
        <label>
          Content (JSON or text)
          <textarea required rows={3} value={content} onInput={(e) => setContent(e.currentTarget.value)} />
        </label>
        <label>
          Visibility
          <select value={visibility} onChange={(e) => setVisibility(e.currentTarget.value as Visibility)}>
            <option>private</option>
            <option>workspace</option>
            <option>public</option>
          </select>
        </label>
        <button class="primary" type="submit" disabled={action.busy}>
          Save
        </button>
      </form>
      <ErrorBox error={list.error ?? action.error} />
      <label>
        Search
        <input type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
      </label>
      {list.loading && !list.data ? <Busy /> : null}
      {list.data && entries.length === 0 ? (
        <Empty>No memory entries: save one above, or let an agent write with mem tools.</Empty>
      ) : null}
      <ul class="cards">
        {entries.map((m) => (
          <li key={`${m.namespaceType}/${m.namespaceId}/${m.key}`} class="card">
            <p>
              <strong>{m.key}</strong>{' '}
              <span class="muted">
                {m.namespaceType}/{m.namespaceId} · {m.visibility} · v{m.version} · {when(m.updatedAt)}
              </span>
            </p>
            <Json value={m.content} />
            {m.owned ? (
              <button
                type="button"
                class="danger"
                onClick={() => void action.run(() => memory.remove(m)).then((d) => d && list.reload())}
              >
                Delete
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
