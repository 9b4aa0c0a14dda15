import { useState } from 'preact/hooks';
import { files, type FileEntry, type Visibility } from '../api/data';
import { Busy, Confirm, Empty, ErrorBox, useAction, useLoad, when } from '../components/ui';
import { Link } from '../router';

const VISIBILITIES: Visibility[] = ['private', 'workspace', 'public'];
const TEXT = /^(text\/|application\/(json|xml|javascript))/;

/** Reads a picked file: text as UTF-8, anything else as base64 (the API takes either). */
function readFile(file: File): Promise<{ data: string; encoding: 'utf8' | 'base64' }> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file'));
    if (TEXT.test(file.type) || /\.(txt|md|csv|json|ya?ml|log)$/i.test(file.name)) {
      reader.onload = () => resolve({ data: String(reader.result), encoding: 'utf8' });
      reader.readAsText(file);
    } else {
      reader.onload = () =>
        resolve({ data: String(reader.result).replace(/^data:[^,]*,/, ''), encoding: 'base64' });
      reader.readAsDataURL(file);
    }
  });
}

export function FilesPage() {
  const [search, setSearch] = useState('');
  const list = useLoad(() => files.list(search || undefined), [search]);
  const action = useAction();
  const [path, setPath] = useState('');
  const [picked, setPicked] = useState<File | null>(null);
  const [visibility, setVisibility] = useState<Visibility>('private');
  const [open, setOpen] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<FileEntry | null>(null);
  const [last, setLast] = useState<{ id: string; what: string } | null>(null);

  const upload = async (e: Event) => {
    e.preventDefault();
    if (!picked) return;
    const target = path.trim() || picked.name;
    const done = await action.run(async () => {
      const { data, encoding } = await readFile(picked);
      return files.write(target, data, encoding, visibility);
    });
    if (done) {
      setLast(done.execution ? { id: done.execution.id, what: `Uploaded ${target}` } : null);
      setOpen(done.entry.path);
      await list.reload();
    }
  };
  const [renaming, setRenaming] = useState<{ path: string; next: string } | null>(null);
  const rename = async (f: FileEntry, next: string) => {
    if (!next.trim() || next === f.path) return setRenaming(null);
    const done = await action.run(() => files.rename(f.path, next.trim()));
    if (done) {
      setRenaming(null);
      setLast(done.execution ? { id: done.execution.id, what: `Renamed ${f.path}` } : null);
      await list.reload();
    }
  };
  /** The API changes visibility by writing the file again: read it back, write it with the new one. */
  const changeVisibility = async (f: FileEntry, next: Visibility) => {
    const done = await action.run(async () => {
      const p = await files.preview(f.path);
      if (p.truncated)
        throw new Error('This file is too large to rewrite from the browser (preview is cut at 64 KB)');
      return files.write(f.path, p.content, p.contentEncoding === 'base64' ? 'base64' : 'utf8', next);
    });
    if (done) await list.reload();
  };
  const remove = async (f: FileEntry) => {
    setDeleting(null);
    const done = await action.run(() => files.remove(f.path));
    if (done) {
      setLast(done.execution ? { id: done.execution.id, what: `Deleted ${f.path}` } : null);
      if (open === f.path) setOpen(null);
      await list.reload();
    }
  };

  const entries = list.data?.entries ?? [];
  return (
    <section>
      <h1>Files</h1>
      <form class="card" onSubmit={upload}>
        <h2>Upload</h2>
        <label>
          File
          <input type="file" name="file" onChange={(e) => setPicked(e.currentTarget.files?.[0] ?? null)} />
        </label>
        <label>
          Path (default: the file's name)
          <input
            name="path"
            value={path}
            onInput={(e) => setPath(e.currentTarget.value)}
            placeholder="notes/report.txt"
          />
        </label>
        <label>
          Visibility
          <select value={visibility} onChange={(e) => setVisibility(e.currentTarget.value as Visibility)}>
            {VISIBILITIES.map((v) => (
              <option key={v}>{v}</option>
            ))}
          </select>
        </label>
        <button type="submit" class="primary" disabled={!picked || action.busy}>
          {action.busy ? 'Uploading…' : 'Upload'}
        </button>
      </form>
      <ErrorBox error={list.error ?? action.error} />
      {last ? (
        <p class="notice" role="status">
          {last.what}: recorded as <Link href={`/executions/${last.id}`}>an execution</Link> you can roll back
          to the previous version.
        </p>
      ) : null}
      <label>
        Search paths
        <input type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
      </label>
      {list.loading && !list.data ? <Busy /> : null}
      {list.data && entries.length === 0 ? <Empty>No files yet: upload one above.</Empty> : null}
      <ul class="cards">
        {entries.map((f) => (
          <li key={f.path} class="card">
            <p>
              <button
                type="button"
                class="link"
                onClick={() => setOpen(open === f.path ? null : f.path)}
                aria-expanded={open === f.path}
              >
                {f.path}
              </button>{' '}
              <span class="muted">
                {f.size} B · {f.contentType} · version {f.version} · {when(f.updatedAt)}
              </span>
            </p>
            {f.owned ? (
              <div class="row">
                <label class="inline">
                  <span class="sr-only">Visibility of {f.path}</span>
                  <select
                    value={f.visibility}
                    onChange={(e) => void changeVisibility(f, e.currentTarget.value as Visibility)}
                  >
                    {VISIBILITIES.map((v) => (
                      <option key={v}>{v}</option>
                    ))}
                  </select>
                </label>
                <button type="button" onClick={() => setRenaming({ path: f.path, next: f.path })}>
                  Rename
                </button>
                <button type="button" class="danger" onClick={() => setDeleting(f)}>
                  Delete
                </button>
              </div>
            ) : (
              <span class="tag">{f.visibility}, shared with you</span>
            )}
            {renaming?.path === f.path ? (
              <form
                class="row"
                onSubmit={(e) => {
                  e.preventDefault();
                  void rename(f, renaming.next);
                }}
              >
                <label class="grow">
                  New path
                  <input
                    value={renaming.next}
                    onInput={(e) => setRenaming({ path: f.path, next: e.currentTarget.value })}
                    onKeyDown={(e) => e.key === 'Escape' && setRenaming(null)}
                    autoFocus
                  />
                </label>
                <button type="submit" class="primary">
                  Move
                </button>
                <button type="button" onClick={() => setRenaming(null)}>
                  Cancel
                </button>
              </form>
            ) : null}
            {open === f.path ? <Preview path={f.path} /> : null}
          </li>
        ))}
      </ul>
      {deleting ? (
        <Confirm
          title={`Delete ${deleting.path}?`}
          confirmLabel="Delete"
          danger
          onCancel={() => setDeleting(null)}
          onConfirm={() => void remove(deleting)}
        >
          <p>The deletion is recorded as an execution: rolling it back revives the file.</p>
        </Confirm>
      ) : null}
    </section>
  );
}

function Preview({ path }: { path: string }) {
  const p = useLoad(() => files.preview(path), [path]);
  if (p.error) return <ErrorBox error={p.error} />;
  if (!p.data) return <Busy />;
  const { entry, content, contentEncoding, truncated } = p.data;
  const image = contentEncoding === 'base64' && /^image\/(png|jpeg|gif|webp)$/.test(entry.contentType ?? '');
  return (
    <div class="preview" data-testid="file-preview">
      {image ? (
        <img src={`data:${entry.contentType};base64,${content}`} alt={`Preview of ${path}`} />
      ) : contentEncoding === 'base64' ? (
        <p class="muted">Binary file ({entry.size} bytes): no text preview.</p>
      ) : (
        <pre>{content}</pre>
      )}
      {truncated ? <p class="muted">Preview cut at 64 KB.</p> : null}
    </div>
  );
}
