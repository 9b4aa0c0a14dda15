import { z } from 'zod';
import { errors } from '../../schemas/errors';
import { defineTool } from '../tools/router/tool-declaration';

export const SocialDraftInputSchema = z.object({
  accountId: z
    .uuid()
    .optional()
    .describe(
      'The connected X account (GET /api/x/accounts id); may be left out when the account has exactly one.',
    ),
  text: z
    .string()
    .trim()
    .min(1)
    .max(2000)
    .describe('The post: at most 280 characters as X counts them (URLs 23, emoji 2).'),
  kind: z.enum(['post', 'reply']).optional().describe('post (default) or reply.'),
  inReplyTo: z
    .string()
    .regex(/^\d{1,19}$/)
    .optional()
    .describe('For a reply: the id of the X post it answers.'),
});

/**
 * `social_draft`: an agent drafts a post for its operator's connected X account. The draft goes
 * through the same guardrails as `POST /api/x/drafts` and waits for a person to approve it: an
 * agent can never publish by itself. Served only when SOCIAL_ENABLED (build-services).
 */
export const socialDraftTool = defineTool({
  name: 'social_draft',
  description:
    "Drafts a post for the operator's connected X account. The guardrails check it at once; it is published only after a person approves it. Returns {draft} with approval_status, guardrail_status, guardrail_reasons and similarity_score.",
  input: SocialDraftInputSchema,
  mutating: true,
  abortable: false,
  run: async (input, ctx) => {
    const social = ctx.services.social;
    if (!social) throw errors.notFound('The social connector is not enabled on this service');
    const owner = ctx.agent.accountId ?? ctx.principal.accountId;
    if (!owner) throw errors.forbidden('Only an agent of an operator account can draft posts');
    let accountId = input.accountId;
    if (!accountId) {
      const accounts = (await social.accounts.list(owner)).filter((a) => a.status === 'connected');
      if (accounts.length !== 1) {
        throw errors.validation(
          accounts.length === 0
            ? 'No X account is connected'
            : 'Several X accounts are connected: give accountId',
        );
      }
      accountId = accounts[0]!.id;
    }
    const draft = await social.drafts.create(
      owner,
      { accountId, text: input.text, kind: input.kind ?? 'post', inReplyTo: input.inReplyTo },
      `agent:${ctx.agent.agentRef}`,
    );
    return { draft };
  },
});
