import { randomBytes, randomUUID } from 'node:crypto';
import type { AccountDocument } from '../../schemas/documents/account';
import type { DeveloperDocument, SkillDocument } from '../../schemas/documents/skill';
import { errors, isAppError } from '../../schemas/errors';
import type { PublishSkillBody, SkillDetail } from '../../schemas/http/skills';
import type { Sandbox } from '../../src/sandbox';
import type { Repository } from '../../src/store/mongo';
import { capabilityRequired, planHas } from '../identity/plans';
import { runCapability } from './capability-script';
import {
  checkSkillContent,
  contentFields,
  newSkillStats,
  SkillContentSchema,
  type SkillContent,
} from './skill-content';
import { dependencyOrder } from './skill-dependencies';
import { skillDetail } from './skill-views';

/** What a publication answers (`POST /api/skills`). */
export interface PublishResult {
  success: true;
  skill: SkillDetail;
  developer: { handle: string };
  /** A new skill (201), or a new version of the account's own (200). */
  created: boolean;
}

const compareSemver = (a: string, b: string) => {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
};

/** A handle from an account's agent name: lower case, dashes, 3-40 characters. */
function handleFrom(name: string | undefined): string | undefined {
  const base = (name ?? '')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 34)
    .replace(/-+$/g, '');
  return base.length >= 3 ? base : undefined;
}

/**
 * Publishing by enterprise accounts (docs/skills.md, "Publishing"), run by the account's
 * `skill-publisher` actor on a worker (it runs code in the sandbox): the plan's capabilities, the
 * account's developer handle (made on its first publication), the same content checks as the
 * seed catalog, dependencies that exist and make no cycle, every capability's code compiling to a
 * `run` function, and the example run for real (without platform calls) to make the preview's output.
 */
export class SkillPublisher {
  constructor(
    private readonly deps: {
      skills: Repository<SkillDocument>;
      developers: Repository<DeveloperDocument>;
      accounts: Repository<AccountDocument>;
      sandbox?: Sandbox;
      now?: () => Date;
    },
  ) {}

  private async developerOf(
    account: AccountDocument,
    wanted: string | undefined,
  ): Promise<DeveloperDocument> {
    const { developers } = this.deps;
    const existing = await developers.findOne({ accountId: account._id });
    if (existing) {
      if (wanted && wanted !== existing._id) {
        throw errors.validation(`This account publishes as ${existing._id}; its handle cannot change`, {
          developerHandle: existing._id,
        });
      }
      return existing;
    }
    const displayName = account.agentName ?? wanted ?? 'Developer';
    const candidates = wanted
      ? [wanted]
      : [handleFrom(account.agentName) ?? `dev-${randomBytes(3).toString('hex')}`].flatMap((h) => [
          h,
          `${h}-${randomBytes(2).toString('hex')}`,
          `${h}-${randomBytes(3).toString('hex')}`,
        ]);
    for (const handle of candidates) {
      const doc: DeveloperDocument = {
        _id: handle,
        kind: 'enterprise',
        accountId: account._id,
        displayName: displayName.slice(0, 100),
        createdAt: this.deps.now?.() ?? new Date(),
      };
      if (await developers.insertIfAbsent(doc)) return doc;
    }
    throw errors.conflict(
      `The developer handle ${candidates[0]} is taken: choose another (developerHandle)`,
      {
        field: 'developerHandle',
      },
    );
  }

  /** Every capability compiles to a `run` function; the example runs without platform calls. */
  private async checkCode(content: SkillContent, libraries: Map<string, string>): Promise<unknown> {
    const sandbox = this.deps.sandbox;
    if (!sandbox) throw errors.unavailable('The sandbox is not available on this node');
    for (const capability of content.capabilities) {
      const probe = await sandbox.execute({
        language: 'javascript',
        code: `${content.library ?? ''}\n;${capability.code}\n;typeof run`,
        timeout: 2000,
      });
      if (probe.outcome !== 'ok' || probe.result !== 'function') {
        const why =
          probe.outcome === 'ok' ? 'it defines no function run(params)' : probe.stderr.split('\n')[0];
        throw errors.validation(`The code of ${capability.name} does not compile: ${why}`.slice(0, 500));
      }
    }
    const example = await runCapability(sandbox, {
      skill: content,
      capability: content.example.capability,
      params: content.example.params,
      dependencies: libraries,
      host: {
        call: async () => {
          throw errors.forbidden('Examples run without platform calls');
        },
      },
    });
    if (!example.ok) throw errors.validation(`The example failed: ${example.message}`.slice(0, 500));
    return example.result;
  }

  async publish(accountId: string, body: PublishSkillBody): Promise<PublishResult> {
    const { skills, accounts } = this.deps;
    const account = await accounts.findById(accountId);
    if (!account) throw errors.notFound('Account not found');
    const capability = body.published ? 'publish_skill' : 'create_skill';
    if (!planHas(account.plan, capability))
      throw errors.forbidden(capabilityRequired(capability), { capability });
    const existing = await skills.findOne({ slug: body.slug });
    if (existing && (existing.source !== 'published' || existing.publisherAccountId !== accountId)) {
      throw errors.conflict(`The slug ${body.slug} is taken`, { field: 'slug' });
    }
    if (existing && compareSemver(body.version, existing.semver) <= 0) {
      throw errors.conflict(`Version ${body.version} is not above the published ${existing.semver}`, {
        field: 'version',
        current: existing.semver,
      });
    }
    const developer = await this.developerOf(account, body.developerHandle);
    const parsed = SkillContentSchema.safeParse({
      ...body,
      skill_id: existing?._id ?? randomUUID(),
      author: developer._id,
      featured: false,
      example: { ...body.example, output: null },
    });
    if (!parsed.success) throw errors.validation(parsed.error.issues[0]?.message ?? 'Invalid skill');
    const content = parsed.data;
    checkSkillContent(content);

    // Dependencies: listed skills, and no cycle through this new version.
    const wanted = [...content.dependencies.required, ...content.dependencies.optional];
    const known = new Map<string, SkillDocument>();
    let level = wanted;
    for (let depth = 0; level.length > 0 && depth < 20; depth++) {
      const docs = await skills.find(
        { slug: { $in: level.filter((s) => !known.has(s)) }, listed: true },
        { limit: 0 },
      );
      for (const d of docs) known.set(d.slug, d);
      level = docs.flatMap((d) => d.dependencies.required).filter((s) => !known.has(s) && s !== content.slug);
    }
    const unknown = wanted.filter((s) => !known.has(s));
    if (unknown.length > 0)
      throw errors.validation(`Unknown dependencies: ${unknown.join(', ')}`, { dependencies: unknown });
    dependencyOrder(content.slug, (slug) =>
      slug === content.slug ? content.dependencies : known.get(slug)?.dependencies,
    );

    const libraries = new Map<string, string>();
    for (const slug of content.dependencies.required) {
      const library = known.get(slug)?.library;
      if (library) libraries.set(slug, library);
    }
    content.example.output = await this.checkCode(content, libraries);
    const fields = contentFields(content);
    const now = this.deps.now?.() ?? new Date();
    let doc: SkillDocument;
    try {
      if (existing) {
        const { library, ...rest } = fields as typeof fields & { library?: string };
        await skills.updateOne(
          { _id: existing._id, publisherAccountId: accountId },
          {
            $set: {
              ...rest,
              ...(library === undefined ? {} : { library }),
              listed: body.published,
              updatedAt: now,
            },
            ...(library === undefined ? { $unset: { library: '' } } : {}),
          },
        );
        doc = (await skills.findById(existing._id))!;
      } else {
        doc = await skills.insertUnique({
          _id: content.skill_id,
          ...fields,
          source: 'published',
          publisherAccountId: accountId,
          listed: body.published,
          ...newSkillStats(now),
        });
      }
    } catch (err) {
      if (isAppError(err) && err.code === 'CONFLICT')
        throw errors.conflict(`The slug ${body.slug} is taken`, { field: 'slug' });
      throw err;
    }
    return {
      success: true,
      skill: skillDetail(doc),
      developer: { handle: developer._id },
      created: !existing,
    };
  }
}
