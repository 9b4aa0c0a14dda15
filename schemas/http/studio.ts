import { z } from 'zod';

/** Longest Studio command, in characters (the grammar refuses longer ones the same way). */
export const MAX_COMMAND_CHARS = 120_000;

/** `POST /api/studio/command`. */
export const StudioCommandBodySchema = z.object({
  command: z.string().max(MAX_COMMAND_CHARS),
  confirmToken: z.string().max(200).optional(),
  advancedMode: z.boolean().default(false),
});

const Ref = z.string().min(1).max(200);

/** `POST /api/studio/intent/stream`. */
export const IntentStreamBodySchema = z.object({
  message: z.string().min(1).max(20_000),
  sessionId: Ref,
  workspaceId: Ref.optional(),
  projectId: Ref.optional(),
});
export type IntentStreamBody = z.infer<typeof IntentStreamBodySchema>;

/** `POST /api/studio/command`: help, a preview to confirm (with its token), a result or an error. */
export const StudioReplySchema = z.object({
  kind: z.enum(['help', 'preview', 'result', 'error']),
  summary: z.string(),
  result: z.unknown().optional(),
  snippet: z.string().optional(),
  confirmToken: z.string().optional(),
  /** Seconds the confirmToken stays valid. */
  expiresIn: z.number().optional(),
  execution: z.object({ id: z.string(), status: z.string() }).optional(),
});
