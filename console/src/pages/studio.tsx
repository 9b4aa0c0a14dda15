import { useRef, useState } from 'preact/hooks';
import { studio, type CommandAnswer } from '../api/studio';
import type { SseEvent } from '../api/sse';
import { ErrorBox, Json, messageOf, useAction } from '../components/ui';
import { Link } from '../router';

interface Entry {
  command: string;
  answer: CommandAnswer;
  confirmed?: boolean;
}

/** The Studio: the strict command line (left) and the chat-style intent stream (right). */
export function StudioPage() {
  return (
    <section>
      <h1>Studio</h1>
      <div class="grid two">
        <CommandLine />
        <IntentChat />
      </div>
    </section>
  );
}

function CommandLine() {
  const [command, setCommand] = useState('help');
  const [history, setHistory] = useState<Entry[]>([]);
  const action = useAction();
  const send = async (text: string, confirmToken?: string) => {
    const answer = await action.run(() => studio.command(text, confirmToken));
    if (answer) setHistory((h) => [{ command: text, answer, confirmed: !!confirmToken }, ...h]);
  };
  return (
    <div class="card">
      <h2>Command line</h2>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (command.trim()) void send(command.trim());
        }}
      >
        <label class="grow">
          <span class="sr-only">Command</span>
          <input
            name="command"
            value={command}
            onInput={(e) => setCommand(e.currentTarget.value)}
            placeholder="help"
            autoComplete="off"
            spellcheck={false}
          />
        </label>
        <button type="submit" class="primary" disabled={action.busy}>
          {action.busy ? 'Running…' : 'Run'}
        </button>
      </form>
      <p class="muted">
        Try <code>help</code>, <code>tools list</code>,{' '}
        <code>{'tool run mem_get --json {"key":"greeting"}'}</code>.
      </p>
      <ErrorBox error={action.error} />
      <ol class="plain history" data-testid="command-history">
        {history.map((h, i) => (
          <li key={i} class={`answer kind-${h.answer.kind}`}>
            <code>&gt; {h.command}</code>
            <p>
              <strong>{h.answer.kind}</strong>: {h.answer.summary}
            </p>
            {h.answer.kind === 'preview' && h.answer.confirmToken && i === 0 ? (
              <div class="confirm-box">
                <p>
                  This command changes something. It runs only when you confirm (valid{' '}
                  {h.answer.expiresIn ?? 300} s).
                </p>
                <button
                  type="button"
                  class="primary"
                  onClick={() => void send(h.command, h.answer.confirmToken)}
                >
                  Confirm and run
                </button>
              </div>
            ) : null}
            {h.answer.execution ? (
              <p>
                Execution <Link href={`/executions/${h.answer.execution.id}`}>{h.answer.execution.id}</Link> (
                {h.answer.execution.status})
              </p>
            ) : null}
            {h.answer.snippet ? (
              <p class="muted">
                API: <code>{h.answer.snippet}</code>
              </p>
            ) : null}
            {h.answer.result !== undefined ? <HelpOrJson answer={h.answer} onPick={setCommand} /> : null}
          </li>
        ))}
      </ol>
    </div>
  );
}

function HelpOrJson({ answer, onPick }: { answer: CommandAnswer; onPick: (c: string) => void }) {
  const commands = (
    answer.result as { commands?: { usage?: string; command?: string; description?: string }[] }
  )?.commands;
  if (answer.kind === 'help' && Array.isArray(commands))
    return (
      <ul class="help">
        {commands.map((c, i) => {
          const usage = c.usage ?? c.command ?? '';
          return (
            <li key={i}>
              <button type="button" class="link" onClick={() => onPick(usage)}>
                <code>{usage}</code>
              </button>{' '}
              {c.description}
            </li>
          );
        })}
      </ul>
    );
  return <Json value={answer.result} />;
}

interface Turn {
  message: string;
  events: SseEvent[];
  error?: string;
}

/** One turn per message: events rendered as they arrive (`execution`, `reply`…, `error`, `done`). */
function IntentChat() {
  const [message, setMessage] = useState('');
  const [turns, setTurns] = useState<Turn[]>([]);
  const [busy, setBusy] = useState(false);
  const sessionId = useRef(`console-${Math.random().toString(36).slice(2, 10)}`);
  const send = async (e: Event) => {
    e.preventDefault();
    const text = message.trim();
    if (!text) return;
    setMessage('');
    setBusy(true);
    const index = turns.length;
    setTurns((t) => [...t, { message: text, events: [] }]);
    const update = (fn: (t: Turn) => Turn) => setTurns((all) => all.map((t, i) => (i === index ? fn(t) : t)));
    try {
      await studio.intent(text, sessionId.current, (ev) =>
        update((t) => ({ ...t, events: [...t.events, ev] })),
      );
    } catch (err) {
      update((t) => ({ ...t, error: messageOf(err) }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="card">
      <h2>Ask</h2>
      <ol class="chat" aria-live="polite" data-testid="intent-stream">
        {turns.length === 0 ? <li class="empty">Ask for something: “list my memory keys”, “help”.</li> : null}
        {turns.map((t, i) => (
          <li key={i}>
            <p class="me">{t.message}</p>
            {t.events.map((ev, j) => (
              <IntentEvent key={j} ev={ev} />
            ))}
            {t.error ? (
              <p class="error" role="alert">
                {t.error}
              </p>
            ) : null}
          </li>
        ))}
      </ol>
      <form class="row" onSubmit={send}>
        <label class="grow">
          <span class="sr-only">Message</span>
          <input
            name="message"
            value={message}
            onInput={(e) => setMessage(e.currentTarget.value)}
            placeholder="Ask the agent…"
            autoComplete="off"
          />
        </label>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Streaming…' : 'Send'}
        </button>
      </form>
    </div>
  );
}

function IntentEvent({ ev }: { ev: SseEvent }) {
  const d = ev.data as Record<string, unknown>;
  switch (ev.event) {
    case 'execution': {
      const x = d.execution as { id: string; status: string };
      return (
        <p class="ev ev-execution" data-event="execution">
          execution <Link href={`/executions/${x.id}`}>{x.id}</Link> {x.status}
        </p>
      );
    }
    case 'reply':
      return d.final ? (
        <div class="ev ev-reply" data-event="reply">
          <p class="bot">{String(d.text ?? '')}</p>
          {d.approval ? (
            <Approval approval={d.approval as { command: string; confirmToken: string }} />
          ) : null}
        </div>
      ) : (
        <span class="ev ev-delta">{String(d.delta ?? '')}</span>
      );
    case 'error':
      return (
        <p class="ev ev-error error" data-event="error">
          {String(d.error)} ({String(d.code)})
        </p>
      );
    case 'done':
      return (
        <p class="ev ev-done muted" data-event="done">
          done: {String(d.status)}
        </p>
      );
    default:
      return <ErrorBox error={new Error(`Unexpected event ${ev.event}`)} />;
  }
}

/** A proposal of the chat: runs only when approved, as the command line's confirm does. */
function Approval({ approval }: { approval: { command: string; confirmToken: string } }) {
  const action = useAction();
  const [answer, setAnswer] = useState<CommandAnswer | null>(null);
  const approve = async () => {
    const a = await action.run(() => studio.command(approval.command, approval.confirmToken));
    if (a) setAnswer(a);
  };
  return (
    <div class="confirm-box">
      <p>
        Proposed: <code>{approval.command}</code>
      </p>
      {answer ? (
        <p>
          <strong>{answer.kind}</strong>: {answer.summary}
        </p>
      ) : (
        <button type="button" class="primary" disabled={action.busy} onClick={() => void approve()}>
          Approve and run
        </button>
      )}
      <ErrorBox error={action.error} />
    </div>
  );
}
