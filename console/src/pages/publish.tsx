import { useState } from 'preact/hooks';
import { apps, type AppCategory, type PublishAppBody } from '../api/stores';
import { ErrorBox, useAction } from '../components/ui';
import { Link } from '../router';

const CATEGORIES: AppCategory[] = ['Research', 'Finance', 'Data', 'Operations'];

/** Comma- or space-separated words of a field, empty ones dropped. */
const words = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/**
 * App publishing for enterprise accounts (docs/apps.md): an app or a new version of one, with its
 * manifest's version, entrypoint, web address, permissions, required secrets and skills. The
 * service checks everything (slug, semver, names); its error is shown as it is.
 */
export function PublishPage() {
  const action = useAction();
  const [form, setForm] = useState({
    name: '',
    category: 'Research' as AppCategory,
    description: '',
    version: '1.0.0',
    entrypoint: 'index.html',
    webUrl: '',
    permissions: '',
    requiredSecrets: '',
    requiredSkills: '',
    releaseNotes: '',
  });
  const [done, setDone] = useState<{ slug: string; version: string; created: boolean } | null>(null);
  const field =
    (key: keyof typeof form) =>
    (e: { currentTarget: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement }) =>
      setForm({ ...form, [key]: e.currentTarget.value });

  const submit = async (e: Event) => {
    e.preventDefault();
    const body: PublishAppBody = {
      name: form.name.trim(),
      category: form.category,
      description: form.description.trim(),
      releaseNotes: form.releaseNotes.trim(),
      manifest: {
        version: form.version.trim(),
        entrypoint: form.entrypoint.trim(),
        permissions: words(form.permissions),
        requiredSecrets: words(form.requiredSecrets),
        requiredSkills: words(form.requiredSkills),
        ...(form.webUrl.trim() ? { distribution: { webUrl: form.webUrl.trim() } } : {}),
      },
    };
    const answer = await action.run(() => apps.publish(body));
    if (answer) setDone({ slug: answer.app.slug, version: answer.app.version, created: answer.created });
  };

  return (
    <section>
      <h1>Publish an app</h1>
      <p class="muted">
        Enterprise accounts publish apps to the store; publishing the same name again with a higher version
        adds that version (installations update from the Apps page).
      </p>
      <ErrorBox error={action.error} />
      {done ? (
        <p class="notice" role="status">
          {done.created ? 'Published' : 'New version published'}: {done.slug} {done.version}.{' '}
          <Link href="/apps">See it in the store</Link>
        </p>
      ) : null}
      <form class="card" onSubmit={(e) => void submit(e)}>
        <label>
          Name
          <input value={form.name} onInput={field('name')} required maxLength={100} />
        </label>
        <label>
          Category
          <select value={form.category} onChange={field('category')}>
            {CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <label>
          Description
          <textarea value={form.description} onInput={field('description')} rows={3} required />
        </label>
        <label>
          Version (semver)
          <input value={form.version} onInput={field('version')} required />
        </label>
        <label>
          Entrypoint
          <input value={form.entrypoint} onInput={field('entrypoint')} required />
        </label>
        <label>
          Web address (optional)
          <input value={form.webUrl} onInput={field('webUrl')} type="url" placeholder="https://…" />
        </label>
        <label>
          Permissions (comma-separated)
          <input
            value={form.permissions}
            onInput={field('permissions')}
            placeholder="files:read, net:fetch"
          />
        </label>
        <label>
          Required secrets (comma-separated)
          <input value={form.requiredSecrets} onInput={field('requiredSecrets')} placeholder="GITHUB_TOKEN" />
        </label>
        <label>
          Required skills (comma-separated slugs)
          <input value={form.requiredSkills} onInput={field('requiredSkills')} placeholder="text-stats" />
        </label>
        <label>
          Release notes
          <textarea value={form.releaseNotes} onInput={field('releaseNotes')} rows={2} />
        </label>
        <button type="submit" disabled={action.busy}>
          Publish
        </button>
      </form>
    </section>
  );
}
