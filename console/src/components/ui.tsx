import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/http';

export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  return err instanceof Error ? err.message : String(err);
}

/** The API's `error` string, as it said it. */
export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  const code = error instanceof ApiError ? error.code : undefined;
  return (
    <p class="error" role="alert">
      {messageOf(error)}
      {code && code !== 'HTTP_ERROR' ? <span class="code"> ({code})</span> : null}
    </p>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

export function Busy({ label = 'Loading…' }: { label?: string }) {
  return (
    <p class="busy" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

export function Status({ status }: { status: string }) {
  return <span class={`status status-${status.toLowerCase()}`}>{status}</span>;
}

/** Loads once (and again on `reload`), keeping the API's error to show. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []) {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const reload = useCallback(async () => {
    setLoading(true);
    try {
      setData(await load());
      setError(null);
    } catch (err) {
      setError(err);
    } finally {
      setLoading(false);
    }
  }, deps);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, loading, reload, setData };
}

/** Runs one action at a time, remembering its error (shown next to the button that ran it). */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(async <T,>(fn: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await fn();
    } catch (err) {
      setError(err);
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, setError };
}

/** A modal confirm: focus goes to Cancel first, Escape closes, the action needs a deliberate click. */
export function Confirm(props: {
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  typed?: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const [typed, setTyped] = useState('');
  useEffect(() => cancelRef.current?.focus(), []);
  const ok = !props.typed || typed.trim().toUpperCase() === props.typed;
  return (
    <div class="overlay" onKeyDown={(e) => e.key === 'Escape' && props.onCancel()}>
      <div class="dialog" role="alertdialog" aria-modal="true" aria-labelledby="confirm-title">
        <h2 id="confirm-title">{props.title}</h2>
        <div>{props.children}</div>
        {props.typed ? (
          <label>
            Type {props.typed} to confirm
            <input value={typed} onInput={(e) => setTyped(e.currentTarget.value)} autoComplete="off" />
          </label>
        ) : null}
        <div class="row">
          <button ref={cancelRef} type="button" onClick={props.onCancel}>
            Cancel
          </button>
          <button
            type="button"
            class={props.danger ? 'danger' : 'primary'}
            disabled={!ok}
            onClick={props.onConfirm}
          >
            {props.confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}

export function Json({ value }: { value: unknown }) {
  return <pre class="json">{JSON.stringify(value, null, 2)}</pre>;
}

export function when(iso?: string | null): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

/** A header cell of `Table`: its text, or its text and a class (`wide`: hidden on narrow screens). */
export type TableHeader = string | { label: string; class: string };

/** The console's table: scrollable on narrow screens, a header row, the rows as children. */
export function Table({ headers, children }: { headers: TableHeader[]; children: ComponentChildren }) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            {headers.map((h) =>
              typeof h === 'string' ? (
                <th key={h}>{h}</th>
              ) : (
                <th key={h.label} class={h.class}>
                  {h.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
