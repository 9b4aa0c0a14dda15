import { useState } from 'preact/hooks';
import { connectors, type Connector } from '../api/connectors';
import { Busy, ErrorBox, useAction } from '../components/ui';

interface SecretRow {
  key: number;
  name: string;
  value: string;
}

let nextRow = 1;
const emptyRow = (): SecretRow => ({ key: nextRow++, name: '', value: '' });

/** The filled rows as `{name: value}`, or nothing when there are none. */
function recordOf(rows: SecretRow[]): Record<string, string> | undefined {
  const filled = rows.filter((r) => r.name.trim());
  return filled.length ? Object.fromEntries(filled.map((r) => [r.name.trim(), r.value])) : undefined;
}

/**
 * Name/value rows (http headers, stdio env). Values go into password fields: they may be
 * credentials, and the service never shows them back either.
 */
function SecretRows(props: {
  legend: string;
  what: string;
  placeholder: string;
  rows: SecretRow[];
  setRows: (update: (old: SecretRow[]) => SecretRow[]) => void;
}) {
  const set = (key: number, change: Partial<SecretRow>) =>
    props.setRows((old) => old.map((r) => (r.key === key ? { ...r, ...change } : r)));
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      {props.rows.map((r, i) => (
        <div class="row" key={r.key}>
          <input
            aria-label={`${props.what} ${i + 1} name`}
            placeholder={props.placeholder}
            value={r.name}
            onInput={(e) => set(r.key, { name: e.currentTarget.value })}
          />
          <input
            type="password"
            autoComplete="off"
            aria-label={`${props.what} ${i + 1} value`}
            value={r.value}
            onInput={(e) => set(r.key, { value: e.currentTarget.value })}
          />
          <button type="button" onClick={() => props.setRows((old) => old.filter((x) => x.key !== r.key))}>
            Remove
          </button>
        </div>
      ))}
      <button type="button" onClick={() => props.setRows((old) => [...old, emptyRow()])}>
        Add {props.what === 'Header' ? 'a header' : 'a variable'}
      </button>
    </fieldset>
  );
}

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
  const [headers, setHeaders] = useState<SecretRow[]>([]);
  const [command, setCommand] = useState('');
  const [args, setArgs] = useState('');
  const [env, setEnv] = useState<SecretRow[]>([]);

  const submit = async (e: Event) => {
    e.preventDefault();
    const common = { slug: slug.trim(), ...(name.trim() ? { name: name.trim() } : {}) };
    const body =
      transport === 'http'
        ? { ...common, transport, url: url.trim(), headers: recordOf(headers) }
        : {
            ...common,
            transport,
            command: command.trim(),
            ...(args.trim() ? { args: args.split('\n').filter((a) => a.trim() !== '') } : {}),
            env: recordOf(env),
          };
    const answer = await action.run(() => connectors.create(body));
    if (answer) {
      setSlug('');
      setName('');
      setUrl('');
      setHeaders([]);
      setCommand('');
      setArgs('');
      setEnv([]);
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
          <SecretRows
            legend="Headers (values are sealed and never shown again)"
            what="Header"
            placeholder="Authorization"
            rows={headers}
            setRows={setHeaders}
          />
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
          <SecretRows
            legend="Environment (values are sealed and never shown again)"
            what="Variable"
            placeholder="API_TOKEN"
            rows={env}
            setRows={setEnv}
          />
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
