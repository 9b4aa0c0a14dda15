/** What a benchmark child tells its parent over IPC. */
export interface ChildEvent {
  event: string;
  [key: string]: unknown;
}

/** Child side: sends a message and resolves once it is written (at once without IPC). */
export function tell(message: ChildEvent): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(message, undefined, undefined, () => resolve());
  });
}

/** How {@link onStopRequest} reports and what else makes it stop. */
export interface StopRequestOptions {
  /** Sent (not awaited) before `stop` runs, only while the IPC channel is connected. */
  announce?: () => ChildEvent;
  /** Reports `{event: 'stopped'}` once stopped, when the parent asked (default true). */
  reportStopped?: boolean;
  /** Also stops on SIGTERM (default false). */
  onSigterm?: boolean;
}

/**
 * Child side: runs `stop` once, when the parent says so (`{cmd: 'stop'}`) or disappears, reports
 * as `options` says, and exits 0. An error of `stop` goes to stderr and does not change that.
 */
export function onStopRequest(stop: () => Promise<void>, options: StopRequestOptions = {}): void {
  const { announce, reportStopped = true, onSigterm = false } = options;
  let stopping = false;
  const run = async (report: boolean) => {
    if (stopping) return;
    stopping = true;
    if (announce && process.connected) process.send?.(announce());
    try {
      await stop();
    } catch (err) {
      process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
    }
    if (report && reportStopped && process.connected) await tell({ event: 'stopped' });
    process.exit(0);
  };
  process.on('message', (m: { cmd?: string }) => {
    if (m?.cmd === 'stop') void run(true);
  });
  // The parent died or hung up: never outlive it.
  process.on('disconnect', () => void run(false));
  if (onSigterm) process.on('SIGTERM', () => void run(false));
}
