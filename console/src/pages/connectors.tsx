import { useState } from 'preact/hooks';
import { connectors, type Connector } from '../api/connectors';
import { Busy, Confirm, Empty, ErrorBox, Status, Table, useAction, useLoad, when } from '../components/ui';
import { ConnectorForm } from './connector-form';

/** Where a connector points: the URL (the API masks credential-looking query values), or the command. */
function target(c: Connector): string {
  if (c.transport === 'http') return c.url ?? '';
  return [c.command ?? '', ...(c.args ?? [])].join(' ');
}

/** Header or env names only: values never come back to the page, even the ones the API shows. */
function secretNames(c: Connector): string[] {
  return Object.keys((c.transport === 'http' ? c.headers : c.env) ?? {});
}

/**
 * The account's MCP connectors (docs/connectors.md): what each one is, whether it answers, its tools
 * (as found at the last discovery), refresh (discovery again, on a new session) and delete.
 */
export function ConnectorsPage() {
  const list = useLoad(() => connectors.list());
  const action = useAction();
  const [shown, setShown] = useState<Connector | null>(null);
  const [deleting, setDeleting] = useState<Connector | null>(null);
  const [notice, setNotice] = useState('');

  const added = async (c: Connector) => {
    setShown(c);
    setNotice(`Added ${c.slug}: ${c.toolCount} tool${c.toolCount === 1 ? '' : 's'} found`);
    await list.reload();
  };
  const refresh = async (c: Connector) => {
    setNotice('');
    const answer = await action.run(() => connectors.refresh(c.slug));
    if (answer) {
      setShown(answer.connector);
      const { healthStatus, toolCount, lastError } = answer.connector;
      setNotice(
        healthStatus === 'error'
          ? `Refreshed ${c.slug}: it did not answer (${lastError?.message ?? 'unknown error'}); the previous tools are kept`
          : `Refreshed ${c.slug}: ${toolCount} tool${toolCount === 1 ? '' : 's'} found`,
      );
      await list.reload();
    }
  };
  /** Disabled: calls are refused and its tools leave the listings; nothing is forgotten. */
  const toggle = async (c: Connector) => {
    setNotice('');
    const enabled = c.healthStatus === 'disabled';
    const answer = await action.run(() => connectors.setEnabled(c.slug, enabled));
    if (answer) {
      if (shown?.slug === c.slug) setShown(answer.connector);
      setNotice(`${enabled ? 'Enabled' : 'Disabled'} ${c.slug}`);
      await list.reload();
    }
  };
  const remove = async (c: Connector) => {
    setDeleting(null);
    setNotice('');
    if (await action.run(() => connectors.remove(c.slug))) {
      if (shown?.slug === c.slug) setShown(null);
      setNotice(`Deleted ${c.slug}`);
      await list.reload();
    }
  };

  const rows = list.data?.connectors ?? [];
  return (
    <section>
      <h1>Connectors</h1>
      <p class="muted">
        Outside MCP servers whose tools your agents call as <code>mcp.&lt;slug&gt;.&lt;tool&gt;</code>. The
        service connects and lists the tools before it saves a connector.
      </p>
      <ConnectorForm onAdded={(c) => void added(c)} />
      {notice ? (
        <p class="notice" role="status">
          {notice}
        </p>
      ) : null}
      <ErrorBox error={list.error ?? action.error} />
      {action.busy ? <Busy label="Working…" /> : null}
      {list.loading && !list.data ? <Busy /> : null}
      {list.data && rows.length === 0 ? (
        <Empty>No connectors yet: add an MCP server above to give your agents its tools.</Empty>
      ) : null}
      {rows.length ? (
        <Table headers={['Slug', 'Name', 'Transport', 'Target', 'Status', 'Tools', 'Actions']}>
          {rows.map((c) => (
            <tr key={c.slug} data-testid={`connector-${c.slug}`}>
              <td>
                <code>{c.slug}</code>
              </td>
              <td>{c.name}</td>
              <td>{c.transport}</td>
              <td>
                <code>{target(c)}</code>
                {secretNames(c).length ? (
                  <div class="muted">
                    {c.transport === 'http' ? 'headers' : 'env'}: {secretNames(c).join(', ')}
                  </div>
                ) : null}
              </td>
              <td>
                <Status status={c.healthStatus} />
                {c.lastError ? (
                  <div class="error-text">
                    {c.lastError.message} ({when(c.lastError.at)})
                  </div>
                ) : null}
              </td>
              <td>{c.toolCount}</td>
              <td>
                <div class="row">
                  <button type="button" onClick={() => setShown(c)}>
                    Tools
                  </button>
                  <button type="button" disabled={action.busy} onClick={() => void refresh(c)}>
                    Refresh
                  </button>
                  <button type="button" disabled={action.busy} onClick={() => void toggle(c)}>
                    {c.healthStatus === 'disabled' ? 'Enable' : 'Disable'}
                  </button>
                  <button type="button" class="danger" onClick={() => setDeleting(c)}>
                    Delete
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </Table>
      ) : null}
      {shown ? <ToolList connector={shown} onClose={() => setShown(null)} /> : null}
      {deleting ? (
        <Confirm
          title={`Delete the connector ${deleting.slug}?`}
          confirmLabel="Delete"
          danger
          onCancel={() => setDeleting(null)}
          onConfirm={() => void remove(deleting)}
        >
          <p>
            Its {deleting.toolCount} tool{deleting.toolCount === 1 ? '' : 's'} leave the router at once;
            agents calling <code>mcp.{deleting.slug}.*</code> get an error. Its sealed headers are dropped.
          </p>
        </Confirm>
      ) : null}
    </section>
  );
}

/** The tools found at the connector's last discovery: name, the server's title, description. */
function ToolList(props: { connector: Connector; onClose: () => void }) {
  const c = props.connector;
  return (
    <div class="card" data-testid="connector-tools" aria-label={`Tools of ${c.slug}`}>
      <h2>
        Tools of {c.slug}
        {c.serverInfo ? (
          <span class="muted">
            {' '}
            ({c.serverInfo.name} {c.serverInfo.version})
          </span>
        ) : null}
      </h2>
      <p class="muted">Discovered {when(c.discoveredAt)}</p>
      {c.tools.length === 0 ? (
        <Empty>The server listed no tools.</Empty>
      ) : (
        <ul>
          {c.tools.map((t) => (
            <li key={t.name}>
              <code>
                mcp.{c.slug}.{t.name}
              </code>
              {t.title ? <strong> {t.title}</strong> : null}
              {t.description ? <span class="muted"> — {t.description}</span> : null}
            </li>
          ))}
        </ul>
      )}
      <button type="button" onClick={props.onClose}>
        Close
      </button>
    </div>
  );
}
