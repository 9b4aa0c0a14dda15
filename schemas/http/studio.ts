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
