import { StringDecoder } from 'node:string_decoder';
import { request } from 'undici';
import { AppError } from '../../schemas/errors';

/** An OpenAI-compatible chat model (`LLM_BASE_URL`, `LLM_API_KEY`, `LLM_MODEL`). */
export interface LlmSettings {
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly model: string;
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ModelToolCallMessage[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A tool call as it goes back to the model in the assistant message. */
export interface ModelToolCallMessage {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A tool offered to the model (OpenAI `tools` entry). */
export interface ModelToolSpec {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** A tool call the model asked for, assembled from the streamed pieces. */
export interface ModelToolCall {
  id: string;
  /** The function name as offered. */
  name: string;
  /** The JSON text of the arguments, as the model wrote it (not parsed yet). */
  arguments: string;
  /** The arguments were longer than MAX_TOOL_ARGUMENT_CHARS (cut: not usable). */
  tooLong?: boolean;
}

/** What one model turn answered: its text and the tool calls it asked for (maybe none). */
export interface ModelTurn {
  text: string;
  toolCalls: ModelToolCall[];
}

/** Longest reply kept, in characters. */
export const MAX_LLM_REPLY_CHARS = 16_000;
/** Tool calls kept from one model turn. */
export const MAX_TOOL_CALLS_PER_TURN = 16;
/** Longest arguments text of one tool call, in characters. */
export const MAX_TOOL_ARGUMENT_CHARS = 64 * 1024;

/** The settings from the config, or undefined when no model is configured. */
export function llmSettingsOf(config: {
  LLM_BASE_URL?: string;
  LLM_API_KEY?: string;
  LLM_MODEL?: string;
}): LlmSettings | undefined {
  if (!config.LLM_BASE_URL || !config.LLM_MODEL) return undefined;
  return { baseUrl: config.LLM_BASE_URL, model: config.LLM_MODEL, apiKey: config.LLM_API_KEY };
}

type StreamedToolCall = {
  index?: unknown;
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
};
type StreamedChunk = {
  choices?: Array<{ delta?: { content?: unknown; tool_calls?: StreamedToolCall[] } }>;
};

/**
 * One model turn, streamed: the text pieces (`onText` sees each) and the tool calls (`tools`
 * offered; `delta.tool_calls` pieces joined per `index`: the id and name once, the arguments in
 * pieces). Bounded: MAX_LLM_REPLY_CHARS of text, MAX_TOOL_CALLS_PER_TURN calls,
 * MAX_TOOL_ARGUMENT_CHARS of arguments each (longer ones are marked `tooLong`).
 */
export async function streamChatTurn(
  llm: LlmSettings,
  messages: readonly ChatMessage[],
  options: { signal: AbortSignal; onText?: (piece: string) => void; tools?: readonly ModelToolSpec[] },
): Promise<ModelTurn> {
  const { signal, onText, tools } = options;
  const base = llm.baseUrl.endsWith('/') ? llm.baseUrl : `${llm.baseUrl}/`;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
  };
  if (llm.apiKey) headers.authorization = `Bearer ${llm.apiKey}`;
  let res: Awaited<ReturnType<typeof request>>;
  try {
    res = await request(new URL('chat/completions', base), {
      method: 'POST',
      headers,
      body: JSON.stringify({
        model: llm.model,
        messages,
        stream: true,
        ...(tools && tools.length > 0 ? { tools, tool_choice: 'auto' } : {}),
      }),
      signal,
      headersTimeout: 30_000,
      bodyTimeout: 60_000,
    });
  } catch (err) {
    if (signal.aborted) throw err;
    throw new AppError('UNAVAILABLE', 'The model could not be reached', {}, { cause: err });
  }
  if (res.statusCode >= 400) {
    await res.body.dump();
    throw new AppError('UNAVAILABLE', `The model answered HTTP ${res.statusCode}`);
  }
  const decoder = new StringDecoder('utf8');
  let text = '';
  let pending = '';
  const calls = new Map<number, ModelToolCall>();
  const takeToolCalls = (list: StreamedToolCall[]) => {
    for (const piece of list) {
      const index = typeof piece.index === 'number' ? piece.index : calls.size;
      let call = calls.get(index);
      if (!call) {
        if (calls.size >= MAX_TOOL_CALLS_PER_TURN) continue;
        call = { id: '', name: '', arguments: '' };
        calls.set(index, call);
      }
      if (typeof piece.id === 'string' && !call.id) call.id = piece.id.slice(0, 200);
      const fn = piece.function;
      if (typeof fn?.name === 'string') call.name = (call.name + fn.name).slice(0, 200);
      if (typeof fn?.arguments === 'string' && !call.tooLong) {
        if (call.arguments.length + fn.arguments.length > MAX_TOOL_ARGUMENT_CHARS) call.tooLong = true;
        else call.arguments += fn.arguments;
      }
    }
  };
  const take = (line: string): boolean => {
    const trimmed = line.trim();
    if (!trimmed.startsWith('data:')) return false;
    const data = trimmed.slice(5).trim();
    if (data === '[DONE]') return true;
    try {
      const delta = (JSON.parse(data) as StreamedChunk).choices?.[0]?.delta;
      if (Array.isArray(delta?.tool_calls)) takeToolCalls(delta.tool_calls);
      const piece = delta?.content;
      if (typeof piece === 'string' && piece.length > 0 && text.length < MAX_LLM_REPLY_CHARS) {
        const kept = piece.slice(0, MAX_LLM_REPLY_CHARS - text.length);
        text += kept;
        onText?.(kept);
      }
    } catch {
      // A line that is not JSON (a comment, a keep-alive): skipped.
    }
    return false;
  };
  for await (const chunk of res.body) {
    pending += decoder.write(chunk as Buffer);
    const lines = pending.split(/\r?\n/);
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (take(line)) {
        await res.body.dump().catch(() => undefined);
        return turnOf(text, calls);
      }
    }
  }
  take(pending + decoder.end());
  return turnOf(text, calls);
}

const turnOf = (text: string, calls: Map<number, ModelToolCall>): ModelTurn => ({
  text,
  toolCalls: [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, call]) => ({ ...call, id: call.id || `call_${index}` })),
});
