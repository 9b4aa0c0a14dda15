import { appInstallUndoer } from '../../../actors/apps/app-install-undoer';
import type { UndoContext } from '../../../actors/executions/step-runners';
import { activeLedger } from './support/installation';

/** The `app_install` undoer's own refusals (the store paths are in app-install-rollback.test.ts). */
describe('app_install undoer', () => {
  const at = new Date('2026-11-28T10:00:00Z');
  const undo = {
    accountId: 'acc_1',
    slug: 'ledger',
    installationId: 'ain_1',
    version: '1.0.0',
    installedAt: at.toISOString(),
  };
  const ctxWith = (installation: object | null, uninstall = jest.fn()) =>
    ({
      services: {
        documents: { repository: () => ({ findById: async () => installation }) },
        apps: { installer: { uninstall } },
      },
    }) as unknown as UndoContext;
  const effect = (u: Record<string, unknown>) => ({
    kind: 'app_install',
    target: 'app:ledger@1.0.0',
    undo: u,
  });
  const live = activeLedger(at);

  it('refuses undo data it cannot read, and touches nothing', async () => {
    const uninstall = jest.fn();
    await expect(
      appInstallUndoer.undo(effect({ slug: 'ledger' }), ctxWith(live, uninstall)),
    ).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    expect(uninstall).not.toHaveBeenCalled();
  });

  it('counts a missing or removed installation as undone', async () => {
    const uninstall = jest.fn();
    await appInstallUndoer.undo(effect(undo), ctxWith(null, uninstall));
    await appInstallUndoer.undo(effect(undo), ctxWith({ ...live, status: 'removed' }, uninstall));
    expect(uninstall).not.toHaveBeenCalled();
  });

  it('refuses another account’s installation, and uninstalls its own only on the install it made', async () => {
    const uninstall = jest.fn();
    await expect(
      appInstallUndoer.undo(effect(undo), ctxWith({ ...live, accountId: 'acc_2' }, uninstall)),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    await appInstallUndoer.undo(effect(undo), ctxWith(live, uninstall));
    expect(uninstall).toHaveBeenCalledWith('acc_1', 'ledger', { installedAt: at, installedVersion: '1.0.0' });
  });
});
