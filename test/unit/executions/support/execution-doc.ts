import type { ExecutionDocument, ExecutionStatus } from '../../../../schemas/documents/execution';

/**
 * An execution document for the pure decision functions: a DEMO_STEPS run of three steps by
 * account `acc_1` in `ws_1`, created and last updated `at`, nothing run yet; `extra` overrides.
 */
export function executionDoc(
  status: ExecutionStatus,
  at: Date,
  extra: Partial<ExecutionDocument> = {},
): ExecutionDocument {
  return {
    _id: 'exe_abcdefgh1234',
    accountId: 'acc_1',
    workspaceId: 'ws_1',
    type: 'DEMO_STEPS',
    status,
    sourceType: 'api',
    title: 't',
    input: {},
    runAs: { subjectType: 'account', accountId: 'acc_1' },
    steps: [],
    progress: { completedSteps: 0, totalSteps: 3 },
    logSeq: 1,
    createdAt: at,
    updatedAt: at,
    version: 1,
    ...extra,
  };
}
