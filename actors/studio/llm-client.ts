import { StringDecoder } from 'node:string_decoder';
import { request } from 'undici';
import { AppError } from '../../schemas/errors';

/** An OpenAI-compatible chat model (`LLM_BASE_URL`, `LLM_API_KEY`, `LLM_MODEL`). */
export interface LlmSettings {
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly model: string;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Longest reply kept, in characters. */
export const MAX_LLM_REPLY_CHARS = 16_000;

/** The settings from the config, or undefined when no model is configured. */
export function llmSettingsOf(config: {
  LLM_BASE_URL?: string;
  LLM_API_KEY?: string;
  LLM_MODEL?: string;
}): LlmSettings | undefined {
  if (!config.LLM_BASE_URL || !config.LLM_MODEL) return undefined;
  return { baseUrl: config.LLM_BASE_URL, model: config.LLM_MODEL, apiKey: config.LLM_API_KEY };
}

/**
 * One chat completion, streamed (`stream: true`, server-sent `data:` lines with
 * `choices[0].delta.content`, ended by `data: [DONE]`) through undici. Resolves the whole text;
 * `onText` sees each piece. Aborts with `signal`. A failure is UNAVAILABLE (the key never shows).
 */
export async function streamChatCompletion(
  llm: LlmSettings,
  messages: readonly ChatMessage[],
  signal: AbortSignal,
  onText?: (piece: string) => void,
): Promise<string> {
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
      body: JSON.stringify({ model: llm.model, messages, stream: true }),
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
  const take = (line: string): boolean => {
    const trimmed = line.trim();
    if (!trimmed.startsWith('data:')) return false;
    const data = trimmed.slice(5).trim();
    if (data === '[DONE]') return true;
    try {
      const piece = (JSON.parse(data) as { choices?: Array<{ delta?: { content?: unknown } }> }).choices?.[0]
        ?.delta?.content;
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
        return text;
      }
    }
  }
  take(pending + decoder.end());
  return text;
}
