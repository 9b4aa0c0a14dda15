import { api, call } from './http';
import { postStream, type SseEvent } from './sse';

export interface CommandAnswer {
  kind: 'help' | 'preview' | 'result' | 'error';
  summary: string;
  result?: unknown;
  snippet?: string;
  confirmToken?: string;
  expiresIn?: number;
  execution?: { id: string; status: string };
}

export const studio = {
  command: (command: string, confirmToken?: string): Promise<CommandAnswer> =>
    call(api.POST('/api/studio/command', { body: { command, confirmToken } })),
  /** The intent stream: `execution`, `reply`…, `error`, `done`, handed over as they arrive. */
  intent: (message: string, sessionId: string, onEvent: (e: SseEvent) => void, signal?: AbortSignal) =>
    postStream('/api/studio/intent/stream', { message, sessionId }, onEvent, signal),
};
