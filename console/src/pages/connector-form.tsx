import { useState } from 'preact/hooks';
import { connectors, type Connector } from '../api/connectors';
import { Busy, ErrorBox, useAction } from '../components/ui';

interface HeaderRow {
  key: number;
  name: string;
  value: string;
}

let nextRow = 1;
const emptyRow = (): HeaderRow => ({ key: nextRow++, name: '', value: '' });

/**
 * Adds a connector: `http` (a Streamable HTTP endpoint, optional headers as name/value rows) or
 * `stdio` (a command and its arguments, one per line). The service connects and lists the tools
 * before it stores anything, so the API's refusal (unreachable, bad URL, policy) shows right here.
 * Header values are typed into password fields and forgotten once sent.
 */
export function ConnectorForm(props: { onAdded: (connector: Connector) => void }) {
  const action = useAction();
  const [transport, setTransport] = useState<'http' | 'stdio'>('http');
  const [slug, setSlug] = useState('');
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [rows, setRows] = useState<HeaderRow[]>([]);
  const [command, setCommand] = useState('');
  const [args, setArgs] = useState('');

  const setRow = (key: number, change: Partial<HeaderRow>) =>
    setRows((old) => old.map((r) => (r.key === key ? { ...r, ...change } : r)));

  const submit = async (e: Event) => {
    e.preventDefault();
    const common = { slug: slug.trim(), ...(name.trim() ? { name: name.trim() } : {}) };
    const filled = rows.filter((r) => r.name.trim());
    const body =
      transport === 'http'
        ? {
            ...common,
            transport,
            url: url.trim(),
            ...(filled.length
              ? { headers: Object.fromEntries(filled.map((r) => [r.name.trim(), r.value])) }
              : {}),
          }
        : {
            ...common,
            transport,
            command: command.trim(),
            ...(args.trim() ? { args: args.split('\n').filter((a) => a.trim() !== '') } : {}),
          };
    const answer = await action.run(() => connectors.create(body));
    if (answer) {
      setSlug('');
      setName('');
      setUrl('');
      setRows([]);
      setCommand('');
      setArgs('');
      props.onAdded(answer.connector);
    }
  };

  return (
    <form class="card" onSubmit={submit} aria-label="Add a connector">
      <h2>Add a connector</h2>
      <fieldset>
        <legend>Transport</legend>
        <label class="inline">
          <input
            type="radio"
            name="transport"
            checked={transport === 'http'}
            onChange={() => setTransport('http')}
          />{' '}
          http (a Streamable HTTP endpoint)
        </label>
        <label class="inline">
          <input
            type="radio"
            name="transport"
            checked={transport === 'stdio'}
            onChange={() => setTransport('stdio')}
          />{' '}
          stdio (a program on the worker)
        </label>
      </fieldset>
      <label>
        Slug (its tools become mcp.&lt;slug&gt;.&lt;tool&gt;)
        <input required maxLength={40} value={slug} onInput={(e) => setSlug(e.currentTarget.value)} />
      </label>
      <label>
        Display name (optional)
        <input maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      {transport === 'http' ? (
        <>
          <label>
            URL
            {/* Text, not type=url: the API's own rule (https, loopback where allowed) decides. */}
            <input
              required
              inputMode="url"
              placeholder="https://mcp.example.com/mcp"
              value={url}
              onInput={(e) => setUrl(e.currentTarget.value)}
            />
          </label>
          <fieldset>
            <legend>Headers (values are sealed and never shown again)</legend>
            {rows.map((r, i) => (
              <div class="row" key={r.key}>
                <input
                  aria-label={`Header ${i + 1} name`}
                  placeholder="Authorization"
                  value={r.name}
                  onInput={(e) => setRow(r.key, { name: e.currentTarget.value })}
                />
                <input
                  type="password"
                  autoComplete="off"
                  aria-label={`Header ${i + 1} value`}
                  value={r.value}
                  onInput={(e) => setRow(r.key, { value: e.currentTarget.value })}
                />
                <button type="button" onClick={() => setRows((old) => old.filter((x) => x.key !== r.key))}>
                  Remove
                </button>
              </div>
            ))}
            <button type="button" onClick={() => setRows((old) => [...old, emptyRow()])}>
              Add a header
            </button>
          </fieldset>
        </>
      ) : (
        <>
          <label>
            Command (allowed by the service's MCP_STDIO_ALLOWLIST)
            <input required value={command} onInput={(e) => setCommand(e.currentTarget.value)} />
          </label>
          <label>
            Arguments (one per line)
            <textarea rows={3} value={args} onInput={(e) => setArgs(e.currentTarget.value)} />
          </label>
        </>
      )}
      <button type="submit" class="primary" disabled={action.busy}>
        Add connector
      </button>
      {action.busy ? <Busy label="Connecting and listing its tools…" /> : null}
      <ErrorBox error={action.error} />
    </form>
  );
}
