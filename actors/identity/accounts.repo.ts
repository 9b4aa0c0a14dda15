import { workspacesCollection } from '../workspaces/workspaces.collection';
import { accountsCollection, planTransitionsCollection } from './accounts.collection';
import { randomBytes } from 'node:crypto';
import {
  type AccountDocument,
  type PlanTransitionDocument,
  type WorkspaceDocument,
} from '../../schemas/documents/account';
import { errors, isAppError } from '../../schemas/errors';
import { type DocumentStore, type Repository } from '../../src/store/mongo';

export function newAccountId(): string {
  return `acc_${randomBytes(12).toString('hex')}`;
}

/**
 * Workspace ids are random on their own: a workspace id may be shown to members, and deriving it
 * from the account id would hand out the internal account id with it.
 */
export function newWorkspaceId(): string {
  return `ws_${randomBytes(12).toString('hex')}`;
}

/** What the identity actors need from the document store, in domain terms. */
export class AccountsRepo {
  readonly accounts: Repository<AccountDocument>;
  readonly workspaces: Repository<WorkspaceDocument>;
  readonly transitions: Repository<PlanTransitionDocument>;

  constructor(documents: DocumentStore) {
    this.accounts = documents.repository(accountsCollection);
    this.workspaces = documents.repository(workspacesCollection);
    this.transitions = documents.repository(planTransitionsCollection);
  }

  findByEmail(email: string): Promise<AccountDocument | null> {
    return this.accounts.findOne({ email });
  }

  /** Missing account → NOT_FOUND without the internal id in the message. */
  async get(accountId: string): Promise<AccountDocument> {
    const doc = await this.accounts.findById(accountId);
    if (!doc) throw errors.notFound('Account not found');
    return doc;
  }

  /** Inserts a new account; a taken email or agent name is a CONFLICT naming the field. */
  async create(doc: AccountDocument): Promise<AccountDocument> {
    try {
      return await this.accounts.insertUnique(doc);
    } catch (err) {
      if (isAppError(err) && err.code === 'CONFLICT') {
        const fields = (err.details.fields as string[] | undefined) ?? [];
        const index = String(err.details.index ?? '');
        if (fields.includes('agentNameKey') || index.startsWith('agentNameKey')) {
          throw errors.conflict('This agent name is already taken', { field: 'agentName' });
        }
        throw errors.conflict('An account with this email already exists', { field: 'email' });
      }
      throw err;
    }
  }

  /** The default workspace, under the id recorded on the account (idempotent: a second call finds it in place). */
  async ensureDefaultWorkspace(accountId: string, workspaceId: string, now = new Date()): Promise<void> {
    await this.workspaces.insertIfAbsent({
      _id: workspaceId,
      ownerAccountId: accountId,
      name: 'Default workspace',
      isDefault: true,
      members: [{ accountId, role: 'owner' }],
      createdAt: now,
      version: 0,
    });
  }
}
