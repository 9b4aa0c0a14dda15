import { z } from 'zod';

/**
 * A crew feature: `actor:<kind>`, `runtime:<function>`, `duty:<name>`, `skill:<slug>` or
 * `app:<slug>` (GET /api/ops/crew lists them).
 */
export const FeatureSlugSchema = z
  .string({ error: 'featureSlug is required' })
  .regex(/^(actor|runtime|duty|skill|app):[A-Za-z0-9_.-]{1,64}$/, {
    message:
      'featureSlug must look like actor:<kind>, runtime:<function>, duty:<name>, skill:<slug> or app:<slug>',
  });

/** `POST /api/ops/crew/failover`. */
export const CrewFailoverBodySchema = z.object({
  featureSlug: FeatureSlugSchema,
  reason: z.string().trim().min(1).max(500).default('manual failover'),
});
export type CrewFailoverBody = z.infer<typeof CrewFailoverBodySchema>;
