import { useState } from 'preact/hooks';
import { apps, type Readiness } from '../api/stores';
import { Busy, Empty, ErrorBox, useAction, useLoad } from '../components/ui';

/** The app store: browse, search, readiness (what is missing), install with permissions, updates, rollback. */
export function AppsPage() {
  const [search, setSearch] = useState('');
  const list = useLoad(() => apps.list(search || undefined), [search]);
  const installed = useLoad(() => apps.installed());
  const updates = useLoad(() => apps.updates());
  const action = useAction();
  const [selected, setSelected] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const reload = async () => {
    await Promise.all([installed.reload(), updates.reload(), list.reload()]);
  };
  const updateAll = async () => {
    const done = await action.run(() => apps.update());
    if (done) {
      setNote(
        done.updated.length
          ? `Updated ${done.updated.map((u) => `${u.slug} ${u.from} → ${u.to}`).join(', ')}`
          : 'Nothing to update',
      );
      await reload();
    }
  };
  const rollback = async (slug: string) => {
    const done = await action.run(() => apps.rollback(slug));
    if (done) {
      setNote(`${slug} rolled back to ${done.rolledBackTo}`);
      await reload();
    }
  };
  const mine = installed.data?.installedApps ?? [];
  const pending = updates.data?.updates ?? [];
  return (
    <section>
      <h1>App store</h1>
      <ErrorBox error={list.error ?? installed.error ?? action.error} />
      {note ? (
        <p class="notice" role="status">
          {note}
        </p>
      ) : null}
      <div class="card">
        <h2>Installed</h2>
        {installed.data && mine.length === 0 ? <Empty>No app installed yet: pick one below.</Empty> : null}
        <ul class="plain">
          {mine.map((a) => (
            <li key={a.slug}>
              <button type="button" class="link" onClick={() => setSelected(a.slug)}>
                {a.slug}
              </button>{' '}
              <span class="muted">
                v{a.installation.installedVersion ?? a.installation.version} · {a.installation.status}
              </span>{' '}
              <MissingSummary r={a.readiness} />{' '}
              <button type="button" onClick={() => void rollback(a.slug)}>
                Roll back
              </button>
            </li>
          ))}
        </ul>
        {pending.length ? (
          <>
            <h3>Updates available</h3>
            <ul class="plain">
              {pending.map((u) => (
                <li key={u.app.slug}>
                  {u.app.name}: {u.installedVersion} → {u.currentVersion}{' '}
                  {u.releaseNotes ? <span class="muted">({u.releaseNotes})</span> : null}
                </li>
              ))}
            </ul>
            <button type="button" class="primary" disabled={action.busy} onClick={() => void updateAll()}>
              Update all
            </button>
          </>
        ) : null}
      </div>
      <label>
        Search apps
        <input type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
      </label>
      {list.loading && !list.data ? <Busy /> : null}
      {list.data && list.data.apps.length === 0 ? (
        <Empty>
          No apps{' '}
          {search
            ? `match “${search}”`
            : 'published yet: an enterprise account publishes them with POST /api/apps'}
          .
        </Empty>
      ) : null}
      {selected ? (
        <AppDetail slug={selected} onChanged={() => void reload()} onClose={() => setSelected(null)} />
      ) : null}
      <ul class="cards store">
        {(list.data?.apps ?? []).map((a) => (
          <li key={a.slug} class="card">
            <button type="button" class="link title" onClick={() => setSelected(a.slug)}>
              {a.name}
            </button>
            <p class="muted">
              {a.category} · {a.installCount ?? 0} installs
            </p>
            <p>{a.description}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

function MissingSummary({ r }: { r: Readiness }) {
  if (r.ready) return <span class="tag ok">ready</span>;
  const parts = [
    r.missingSecrets.length ? `secrets ${r.missingSecrets.join(', ')}` : '',
    r.missingSkills.length ? `skills ${r.missingSkills.join(', ')}` : '',
    r.missingPermissions.length ? `permissions ${r.missingPermissions.join(', ')}` : '',
  ].filter(Boolean);
  return <span class="tag warn">missing {parts.join('; ') || 'nothing listed (disabled?)'}</span>;
}

function AppDetail(props: { slug: string; onChanged: () => void; onClose: () => void }) {
  const readiness = useLoad(() => apps.readiness(props.slug), [props.slug]);
  const detail = useLoad(() => apps.get(props.slug), [props.slug]);
  const action = useAction();
  const [approved, setApproved] = useState<string[] | null>(null);
  const r = readiness.data;
  const required = r?.requiredPermissions ?? [];
  const chosen = approved ?? required;
  const install = async () => {
    if (await action.run(() => apps.install(props.slug, chosen))) {
      await readiness.reload();
      props.onChanged();
    }
  };
  return (
    <div class="card detail">
      <div class="row spread">
        <h2>{detail.data?.app.name ?? props.slug}</h2>
        <button type="button" onClick={props.onClose}>
          Close
        </button>
      </div>
      <ErrorBox error={readiness.error ?? detail.error ?? action.error} />
      {!r ? <Busy /> : null}
      {detail.data ? <p>{detail.data.app.description}</p> : null}
      {r ? (
        <>
          <p>
            Readiness: <MissingSummary r={r} />{' '}
            {r.updateAvailable ? <span class="tag">update available</span> : null}
          </p>
          {r.missingSecrets.length ? (
            <p>
              Store {r.missingSecrets.join(', ')} in the vault and assign them to app {props.slug}.
            </p>
          ) : null}
          {r.missingSkills.length ? (
            <p>Install the skills {r.missingSkills.join(', ')} from the skill store first.</p>
          ) : null}
          <fieldset>
            <legend>Permissions to approve</legend>
            {required.length === 0 ? <p class="muted">No permission asked.</p> : null}
            {required.map((p) => (
              <label key={p} class="inline">
                <input
                  type="checkbox"
                  checked={chosen.includes(p)}
                  onChange={() =>
                    setApproved(chosen.includes(p) ? chosen.filter((x) => x !== p) : [...chosen, p])
                  }
                />{' '}
                {p}
              </label>
            ))}
          </fieldset>
          <button type="button" class="primary" disabled={action.busy} onClick={() => void install()}>
            Install
          </button>
          {r.targets?.length ? (
            <p>
              Open:{' '}
              {r.targets.map((t) => (
                <a key={t.target} href={t.url} rel="noopener noreferrer" target="_blank">
                  {t.target}{' '}
                </a>
              ))}
            </p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
