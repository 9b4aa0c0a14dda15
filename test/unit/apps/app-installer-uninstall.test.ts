import { AppInstaller, type AppInstallerDeps } from '../../../actors/apps/app-installer';
import { activeLedger } from './support/installation';

/**
 * `uninstall` with `only` (a rollback of one install; the removal itself is in
 * test/integration/apps/app-install-rollback.test.ts): the install and version it names are part
 * of the one conditional write, so an installation that changed between the undoer's read and that
 * write is left alone and the rollback is told why (CONFLICT), with nothing else touched.
 */
describe('AppInstaller.uninstall', () => {
  const at = new Date('2026-11-28T10:00:00Z');
  const installation = { _id: 'ain_1', ...activeLedger(at) };
  const setup = (written: object | null) => {
    const findOneAndUpdate = jest.fn(async () => written);
    const effects = { dropFromLibrary: jest.fn(), activity: jest.fn() };
    const installer = new AppInstaller({
      catalog: { get: async () => ({ _id: 'ledger', name: 'Ledger' }) },
      installations: { findOne: async () => installation, findOneAndUpdate },
      effects,
    } as unknown as AppInstallerDeps);
    return { installer, findOneAndUpdate, effects };
  };
  const only = { installedAt: at, installedVersion: '1.0.0' };

  it('refuses with CONFLICT when the installation changed before the write, and touches nothing else', async () => {
    const { installer, findOneAndUpdate, effects } = setup(null);
    await expect(installer.uninstall('acc_1', 'ledger', only)).rejects.toMatchObject({ code: 'CONFLICT' });
    // The install and version named are conditions of the write itself, not of an earlier read.
    expect(findOneAndUpdate).toHaveBeenCalledWith(
      { _id: 'ain_1', status: { $ne: 'removed' }, ...only },
      expect.objectContaining({ $set: expect.objectContaining({ status: 'removed' }) }),
    );
    expect(effects.dropFromLibrary).not.toHaveBeenCalled();
    expect(effects.activity).not.toHaveBeenCalled();
  });

  it('without `only`, an installation removed meanwhile is NOT_FOUND', async () => {
    const { installer } = setup(null);
    await expect(installer.uninstall('acc_1', 'ledger')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
