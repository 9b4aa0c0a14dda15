import { z } from 'zod';
import {
  IntentStreamBodySchema,
  StudioCommandBodySchema,
  StudioReplySchema,
} from '../../schemas/http/studio';
import { defineContracts } from '../../src/http/openapi/contract';

/** studio.route.ts: the command line and the chat-style intent stream. */
export const studioContracts = defineContracts('Studio', [
  {
    method: 'post',
    path: '/api/studio/command',
    summary: 'Run a Studio command (changes answer a preview first; send it back with its confirmToken)',
    auth: 'sb',
    body: StudioCommandBodySchema,
    bodyExample: { command: 'help' },
    responses: { 200: StudioReplySchema },
    idempotent: true,
  },
  {
    method: 'post',
    path: '/api/studio/intent/stream',
    summary: 'Send a message; the answer streams as Server-Sent Events: execution, reply, error, done',
    auth: 'sb',
    body: IntentStreamBodySchema,
    bodyExample: { message: 'list my files', sessionId: 'session-1' },
    responses: {
      200: {
        description: 'Events `execution`, `reply` (deltas, then the final one), `error`, `done`',
        contentType: 'text/event-stream',
        schema: z.string(),
      },
    },
    errors: [409],
    idempotent: true,
  },
]);
