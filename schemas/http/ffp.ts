import { z } from 'zod';

/**
 * The FFP compatibility feature. In this version it is disabled and every runtime execution
 * bypasses it: `GET /api/ffp/temp` reports `{ enabled: false, status: 'disabled', route: 'direct' }`
 * (`route: 'direct'` = tools are executed directly, not through FFP).
 */
export const FfpStateSchema = z.object({
  enabled: z.literal(false),
  status: z.literal('disabled'),
  route: z.literal('direct'),
});

export type FfpState = z.infer<typeof FfpStateSchema>;
