import { PrincipalSchema } from '../../schemas/auth';
import { errors } from '../../schemas/errors';
import { PublishSkillBodySchema } from '../../schemas/http/skills';
import { defineActor } from '../../src/kernel/actor-definition';
import type { SkillPublisher } from './skill-publisher';

/**
 * `skill-publisher:<accountId>`: one enterprise account's publications (docs/skills.md,
 * "Publishing"), one at a time; the checks run code in the sandbox, so on a worker. Slugs and
 * handles are unique by index too: two accounts racing for one slug cannot both have it.
 */
export const skillPublisherActor = (publisher: SkillPublisher) =>
  defineActor({
    kind: 'skill-publisher',
    messages: { 'skill-publisher.publish': PublishSkillBodySchema },
    handlers: {
      'skill-publisher.publish': (ctx, body) => {
        const principal = PrincipalSchema.safeParse(ctx.auth);
        if (!principal.success) throw errors.unauthorized();
        if (principal.data.accountId !== ctx.id || principal.data.subjectType !== 'account') {
          throw errors.forbidden('Skills are published by the account itself, not by its agents');
        }
        return publisher.publish(ctx.id, body);
      },
    },
  });
