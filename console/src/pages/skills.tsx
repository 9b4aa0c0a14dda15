import { useEffect, useState } from 'preact/hooks';
import { skills, type SkillInstallation, type SkillPermission } from '../api/stores';
import { Busy, Empty, ErrorBox, Json, Status, useAction, useLoad } from '../components/ui';
import { Link } from '../router';

/** The skill store: browse and search, preview, install with permissions, use a capability. */
export function SkillsPage() {
  const [search, setSearch] = useState('');
  const list = useLoad(() => skills.list(search || undefined), [search]);
  const installed = useLoad(() => skills.installed());
  const [selected, setSelected] = useState<string | null>(null);
  const installedBySlug = new Map((installed.data?.installed_skills ?? []).map((i) => [i.skill.slug, i]));
  return (
    <section>
      <h1>Skill store</h1>
      <label>
        Search skills
        <input
          type="search"
          name="skill-search"
          value={search}
          onInput={(e) => setSearch(e.currentTarget.value)}
          placeholder="csv, text, date…"
        />
      </label>
      <ErrorBox error={list.error ?? installed.error} />
      {list.loading && !list.data ? <Busy /> : null}
      {list.data && list.data.skills.length === 0 ? (
        <Empty>No skill matches “{search}”: try a shorter word.</Empty>
      ) : null}
      {selected ? (
        <SkillDetailView
          slug={selected}
          installation={installedBySlug.get(selected)}
          onChanged={() => void installed.reload()}
          onClose={() => setSelected(null)}
        />
      ) : null}
      <ul class="cards store">
        {(list.data?.skills ?? []).map((s) => (
          <li key={s.slug} class="card">
            <button
              type="button"
              class="link title"
              onClick={() => setSelected(s.slug)}
              data-testid={`skill-${s.slug}`}
            >
              {s.name}
            </button>{' '}
            {installedBySlug.has(s.slug) ? <span class="tag">installed</span> : null}
            <p class="muted">
              {s.category} · v{s.version} · {s.installs ?? 0} installs
            </p>
            <p>{s.description}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

function SkillDetailView(props: {
  slug: string;
  installation?: SkillInstallation;
  onChanged: () => void;
  onClose: () => void;
}) {
  const preview = useLoad(() => skills.preview(props.slug), [props.slug]);
  const action = useAction();
  const [approved, setApproved] = useState<SkillPermission[]>([]);
  const [capability, setCapability] = useState('');
  const [params, setParams] = useState('{}');
  const [output, setOutput] = useState<{ result: unknown; ms: number; executionId: string } | null>(null);

  useEffect(() => {
    const p = preview.data;
    if (!p) return;
    setApproved(p.skill.permissions_required);
    setCapability(p.preview.inputExample.capability);
    setParams(JSON.stringify(p.preview.inputExample.params ?? {}, null, 2));
    setOutput(null);
  }, [preview.data]);

  if (preview.error) return <ErrorBox error={preview.error} />;
  if (!preview.data) return <Busy />;
  const skill = preview.data.skill;
  const inst = props.installation;
  const install = async () => {
    if (await action.run(() => skills.install(skill.slug, approved))) props.onChanged();
  };
  const use = async (e: Event) => {
    e.preventDefault();
    const answer = await action.run(async () =>
      skills.use(skill.slug, capability, JSON.parse(params || '{}')),
    );
    if (answer)
      setOutput({ result: answer.result, ms: answer.execution_time_ms, executionId: answer.execution.id });
  };
  return (
    <div class="card detail" data-testid="skill-detail">
      <div class="row spread">
        <h2>{skill.name}</h2>
        <button type="button" onClick={props.onClose}>
          Close
        </button>
      </div>
      <p>{skill.description}</p>
      <h3>Capabilities</h3>
      <ul>
        {skill.capabilities.map((c) => (
          <li key={c.name}>
            <code>{c.name}</code> {c.mutating ? <span class="tag">changes data</span> : null} {c.description}
          </li>
        ))}
      </ul>
      {skill.required_secrets.length ? (
        <p>Needs secrets in the vault: {skill.required_secrets.join(', ')}</p>
      ) : null}
      {inst ? (
        <p>
          Installed <Status status={inst.status} />
          {inst.missingPermissions.length ? (
            <span class="error"> Missing permissions: {inst.missingPermissions.join(', ')}</span>
          ) : null}
        </p>
      ) : null}
      {!inst || inst.missingPermissions.length ? (
        <fieldset>
          <legend>Permissions to approve</legend>
          {skill.permissions_required.length === 0 ? (
            <p class="muted">This skill asks for no permission.</p>
          ) : null}
          {skill.permissions_required.map((p) => (
            <label key={p} class="inline">
              <input
                type="checkbox"
                checked={approved.includes(p)}
                onChange={() => setApproved((a) => (a.includes(p) ? a.filter((x) => x !== p) : [...a, p]))}
              />{' '}
              {p}
            </label>
          ))}
          <button type="button" class="primary" disabled={action.busy} onClick={() => void install()}>
            {inst ? 'Approve and update' : 'Install'}
          </button>
        </fieldset>
      ) : null}
      {inst ? (
        <form onSubmit={use}>
          <h3>Use a capability</h3>
          <label>
            Capability
            <select value={capability} onChange={(e) => setCapability(e.currentTarget.value)}>
              {skill.capabilities.map((c) => (
                <option key={c.name}>{c.name}</option>
              ))}
            </select>
          </label>
          <label>
            Params (JSON)
            <textarea
              rows={5}
              value={params}
              onInput={(e) => setParams(e.currentTarget.value)}
              spellcheck={false}
            />
          </label>
          <button type="submit" class="primary" disabled={action.busy}>
            {action.busy ? 'Running…' : 'Run'}
          </button>
        </form>
      ) : null}
      <ErrorBox error={action.error} />
      {output ? (
        <div data-testid="skill-result">
          <p>
            Ran in {output.ms} ms · <Link href={`/executions/${output.executionId}`}>execution</Link>
          </p>
          <Json value={output.result} />
        </div>
      ) : null}
    </div>
  );
}
