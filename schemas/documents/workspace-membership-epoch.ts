import { z } from 'zod';

export const MembershipEpochDocumentSchema = z.object({
  /** Always `membership`: one counter for the whole service. */
  _id: z.string().min(1),
  epoch: z.number().int().nonnegative(),
  /** When the last change that could not reach the cache raised it. */
  bumpedAt: z.date(),
});
export type MembershipEpochDocument = z.infer<typeof MembershipEpochDocumentSchema>;
