import { z } from 'zod';
import type { Filter } from 'mongodb';
import type { Principal } from '../../schemas/auth';
import { AppError, errors, isAppError } from '../../schemas/errors';
import type { Services } from '../../src/boot/services';
import type { EffectUndoer, UndoContext } from '../executions/step-runners';
import { executionView } from '../executions/execution-views';
import { recordCompletedExecution, workspaceForChange } from '../executions/record-completed';
import { escapeRegex } from '../files/file-views';
import { agentsCollection } from '../identity/agents.collection';
import { memoryEntriesCollection, memoryEntryId } from './memory.collection';
import {
  MEMORY_LIMITS,
  MemoryEntryDocumentSchema,
  type MemoryEntryDocument,
  type MemoryNamespaceType,
  type MemoryVisibility,
} from '../../schemas/documents/memory';

/**
 * Governed memory for the operators (`/api/memory`, docs/memory.md): an account's entries, upserted
 * per (account, namespace, key), each change recorded as a finished execution with a `memory`
 * effect whose rollback puts the previous entry back (or deletes a new one). The tenant is the
 * account: an agent of the account acts on the account's entries.
 */

export type MemoryCaller = Principal & { accountId: string };

export interface MemoryEntryView {
  key: string;
  namespaceType: MemoryNamespaceType;
  namespaceId: string;
  visibility: MemoryVisibility;
  content: unknown;
  tags: string[];
  createdAt: string;
  updatedAt: string;
  version: number;
  owned: boolean;
}

export interface MemoryListQuery {
  search?: string;
  namespaceType?: MemoryNamespaceType;
  namespaceId?: string;
  limit?: number;
}

export interface MemoryWriteInput {
  key: string;
  content: unknown;
  namespaceType?: MemoryNamespaceType;
  namespaceId?: string;
  visibility?: MemoryVisibility;
  tags?: string[];
  workspaceId?: string;
}

export const MEMORY_EXPORT_FORMAT = 'ars.memory.v1';

/** Undo data of a `memory` effect: the entry, its version after the change (null: deleted) and before it. */
const SnapshotSchema = MemoryEntryDocumentSchema.extend({
  createdAt: z.coerce.date(),
  updatedAt: z.coerce.date(),
});
export const MemoryUndoSchema = z.object({
  entryId: z.string().min(1),
  after: z.number().int().nullable(),
  before: SnapshotSchema.nullable(),
});

export function entryView(doc: MemoryEntryDocument, owned: boolean): MemoryEntryView {
  return {
    key: doc.key,
    namespaceType: doc.namespaceType,
    namespaceId: doc.namespaceId,
    visibility: doc.visibility,
    content: JSON.parse(doc.contentJson) as unknown,
    tags: [...doc.tags],
    createdAt: doc.createdAt.toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
    version: doc.version,
    owned,
  };
}

const searchTextOf = (key: string, tags: readonly string[], contentJson: string) =>
  [key, ...tags, contentJson].join('\n').toLowerCase();

/** The fields a restore puts back (not the id, owner, namespace or key: they are the id's). */
const restorable = (s: z.output<typeof SnapshotSchema>) => ({
  workspaceId: s.workspaceId,
  contentJson: s.contentJson,
  visibility: s.visibility,
  tags: s.tags,
  searchText: s.searchText,
});

/**
 * Puts an entry back as it was before the change, if it is still as the change left it (else
 * CONFLICT: someone changed it since, and it is reported as not undone).
 */
export const memoryUndoer: EffectUndoer = {
  kind: 'memory',
  async undo(effect, ctx: UndoContext) {
    const parsed = MemoryUndoSchema.safeParse(effect.undo);
    if (!parsed.success) throw errors.validation('the recorded undo data is not usable');
    const { entryId, after, before } = parsed.data;
    const repo = ctx.services.documents.repository(memoryEntriesCollection);
    const current = await repo.findById(entryId);
    // As the change left it: at that version, or put back in that state by a later rollback.
    const unchanged =
      after === null ? current === null : current?.version === after || current?.restoredFrom === after;
    if (!unchanged) throw errors.conflict('the memory entry was changed after this execution wrote it');
    if (!before) {
      if (current && !(await repo.deleteOne({ _id: entryId, version: current.version }))) {
        throw errors.conflict('the memory entry was changed after this execution wrote it');
      }
      return;
    }
    const now = new Date();
    if (current) {
      await repo.updateIfVersion(entryId, current.version, {
        $set: { ...restorable(before), updatedAt: now, restoredFrom: before.version },
      });
    } else {
      await repo.insert({
        ...before,
        updatedAt: now,
        version: before.version + 1,
        restoredFrom: before.version,
      });
    }
  },
};

function checkContent(content: unknown): string {
  if (content === undefined) throw errors.validation('content is required', { field: 'content' });
  const json = JSON.stringify(content);
  if (json.length > MEMORY_LIMITS.maxContentChars) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `content is larger than ${MEMORY_LIMITS.maxContentChars} characters of JSON`,
      {
        size: json.length,
        maxChars: MEMORY_LIMITS.maxContentChars,
      },
    );
  }
  return json;
}

/** The caller as a workspace member: its account, and itself when it is an agent. */
const memberSubject = (caller: MemoryCaller) => ({
  accountId: caller.accountId,
  ...(caller.subjectType === 'agent' && caller.agentId ? { agentId: caller.agentId } : {}),
});

export class MemoryApi {
  constructor(private readonly services: Services) {}

  private get repo() {
    return this.services.documents.repository(memoryEntriesCollection);
  }

  private get executions() {
    return this.services.executions;
  }

  /** The caller's public agent reference (`agentRef`), or null for an account caller. */
  async viewerAgentId(caller: MemoryCaller): Promise<string | null> {
    if (caller.subjectType !== 'agent' || !caller.agentId) return null;
    const agent = await this.services.documents.repository(agentsCollection).findById(caller.agentId);
    return agent?.agentRef ?? null;
  }

  /** The workspaces the caller is a member of (docs/workspaces.md), for `workspace` visibility. */
  private workspaceIdsOf(caller: MemoryCaller): Promise<string[]> {
    return this.services.workspaces.membership.workspaceIdsOf(memberSubject(caller));
  }

  /** Entries the caller may see (own; public; `workspace` ones of its workspaces), by namespace and key. */
  async list(caller: MemoryCaller, query: MemoryListQuery): Promise<MemoryEntryView[]> {
    const workspaceIds = await this.workspaceIdsOf(caller);
    const visible: Filter<MemoryEntryDocument>[] = [
      { accountId: caller.accountId },
      { visibility: 'public' },
    ];
    if (workspaceIds.length > 0)
      visible.push({ visibility: 'workspace', workspaceId: { $in: workspaceIds } });
    const and: Filter<MemoryEntryDocument>[] = [{ $or: visible }];
    if (query.namespaceType) and.push({ namespaceType: query.namespaceType });
    if (query.namespaceId) and.push({ namespaceId: query.namespaceId });
    if (query.search) and.push({ searchText: { $regex: escapeRegex(query.search.toLowerCase()) } });
    const limit = query.limit ?? MEMORY_LIMITS.defaultListLimit;
    const docs = await this.repo.find(
      { $and: and },
      { sort: { namespaceType: 1, namespaceId: 1, key: 1, _id: 1 }, limit },
    );
    const canSee = (d: MemoryEntryDocument) =>
      d.accountId === caller.accountId ||
      d.visibility === 'public' ||
      (d.visibility === 'workspace' && workspaceIds.includes(d.workspaceId));
    return docs.filter(canSee).map((d) => entryView(d, d.accountId === caller.accountId));
  }

  /** Creates or replaces the caller's entry at (namespace, key); recorded as a MEMORY_WRITE execution. */
  async write(caller: MemoryCaller, input: MemoryWriteInput) {
    const contentJson = checkContent(input.content);
    const namespaceType = input.namespaceType ?? 'user';
    const namespaceId = input.namespaceId ?? MEMORY_LIMITS.defaultNamespaceId;
    if (
      input.workspaceId &&
      !(await this.services.workspaces.membership.isMember(memberSubject(caller), input.workspaceId))
    ) {
      throw errors.notFound('Workspace not found', { workspaceId: input.workspaceId });
    }
    const id = memoryEntryId(caller.accountId, namespaceType, namespaceId, input.key);
    for (let attempt = 1; ; attempt++) {
      const before = await this.repo.findById(id);
      // Refused (403) while that workspace is in panic lockdown.
      const workspaceId = await workspaceForChange(
        this.executions,
        caller,
        input.workspaceId ?? before?.workspaceId,
      );
      const tags = input.tags ?? before?.tags ?? [];
      const fields = {
        workspaceId,
        contentJson,
        visibility: input.visibility ?? before?.visibility ?? 'private',
        tags,
        searchText: searchTextOf(input.key, tags, contentJson),
      };
      const now = new Date();
      let after: MemoryEntryDocument | null = null;
      try {
        if (before) {
          after = await this.repo.updateIfVersion(id, before.version, {
            $set: { ...fields, updatedAt: now },
            $unset: { restoredFrom: '' },
          });
        } else {
          const doc: MemoryEntryDocument = {
            _id: id,
            accountId: caller.accountId,
            namespaceType,
            namespaceId,
            key: input.key,
            ...fields,
            createdAt: now,
            updatedAt: now,
            version: 1,
          };
          if (await this.repo.insertIfAbsent(doc)) after = doc;
        }
      } catch (err) {
        if (!(isAppError(err) && err.code === 'CONFLICT') || attempt >= 3) throw err;
      }
      if (!after) {
        if (attempt >= 3) throw errors.conflict('The memory entry changed while it was written; try again');
        continue;
      }
      const target = `${namespaceType}/${namespaceId}/${input.key}`;
      const execution = await recordCompletedExecution(this.executions, caller, {
        type: 'MEMORY_WRITE',
        title: `${before ? 'Update' : 'Create'} memory ${target}`,
        workspaceId,
        stepName: `write ${target}`,
        effects: [{ kind: 'memory', target, undo: { entryId: id, after: after.version, before } }],
        result: { key: input.key, namespaceType, namespaceId, version: after.version, created: !before },
      });
      return { entry: entryView(after, true), created: !before, execution: executionView(execution) };
    }
  }

  /** Deletes the caller's entry (404 when absent); recorded as a MEMORY_DELETE execution. */
  async delete(
    caller: MemoryCaller,
    input: { key: string; namespaceType?: MemoryNamespaceType; namespaceId?: string },
  ) {
    const namespaceType = input.namespaceType ?? 'user';
    const namespaceId = input.namespaceId ?? MEMORY_LIMITS.defaultNamespaceId;
    const id = memoryEntryId(caller.accountId, namespaceType, namespaceId, input.key);
    const target = `${namespaceType}/${namespaceId}/${input.key}`;
    const before = await this.repo.findById(id);
    if (!before)
      throw errors.notFound(`No memory entry ${target}`, { key: input.key, namespaceType, namespaceId });
    await workspaceForChange(this.executions, caller, before.workspaceId);
    if (!(await this.repo.deleteOne({ _id: id, version: before.version }))) {
      throw errors.conflict('The memory entry changed while it was deleted; try again', { key: input.key });
    }
    const execution = await recordCompletedExecution(this.executions, caller, {
      type: 'MEMORY_DELETE',
      title: `Delete memory ${target}`,
      workspaceId: before.workspaceId,
      stepName: `delete ${target}`,
      effects: [{ kind: 'memory', target, undo: { entryId: id, after: null, before } }],
      result: { key: input.key, namespaceType, namespaceId, deleted: true },
    });
    return {
      deleted: true as const,
      key: input.key,
      namespaceType,
      namespaceId,
      execution: executionView(execution),
    };
  }
}
