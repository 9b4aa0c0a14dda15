import { z } from 'zod';
import type { Effect } from '../../schemas/documents/execution';
import { errors, isAppError } from '../../schemas/errors';
import type { EffectUndoer, UndoContext } from '../executions/step-runners';
import { appInstallationsCollection } from './apps.collection';

/**
 * The `app_install` effect of an `APP_INSTALL` execution, and its undoer: rolling the execution
 * back uninstalls the app, as `DELETE /api/apps/{slug}/install` does (the installation marked
 * removed, the library entry dropped, an activity line), so a rollback of an install leaves the
 * account as it was. Only the install that execution made: an installation updated or rolled to
 * another version since is a CONFLICT (roll that change back first, newest first, like files), and
 * one already removed counts as undone.
 */
export const AppInstallUndoSchema = z.object({
  accountId: z.string().min(1),
  slug: z.string().min(1),
  installationId: z.string().min(1),
  version: z.string().min(1),
  /** When this install happened: a later install of the same app (removed and installed again) is another one. */
  installedAt: z.string().min(1),
});
export type AppInstallUndo = z.infer<typeof AppInstallUndoSchema>;

/** The effect an install records (target `app:<slug>@<version>`). */
export function appInstallEffect(undo: AppInstallUndo): Effect {
  return { kind: 'app_install', target: `app:${undo.slug}@${undo.version}`, undo };
}

export const appInstallUndoer: EffectUndoer = {
  kind: 'app_install',
  async undo(effect, ctx: UndoContext) {
    const parsed = AppInstallUndoSchema.safeParse(effect.undo);
    if (!parsed.success) throw errors.validation('the recorded undo data is not usable');
    const u = parsed.data;
    const installation = await ctx.services.documents
      .repository(appInstallationsCollection)
      .findById(u.installationId);
    if (!installation || installation.status === 'removed') return; // already uninstalled
    if (installation.accountId !== u.accountId || installation.slug !== u.slug)
      throw errors.conflict('the installation is not the one this execution made');
    if (installation.installedAt.toISOString() !== u.installedAt)
      throw errors.conflict(`${u.slug} was removed and installed again since: that install is not this one`);
    if (installation.installedVersion !== u.version) {
      throw errors.conflict(
        `${u.slug} is at version ${installation.installedVersion} now, not ${u.version}: roll back the later change first`,
        { installedVersion: installation.installedVersion },
      );
    }
    try {
      await ctx.services.apps.installer.uninstall(u.accountId, u.slug, {
        installedAt: installation.installedAt,
        installedVersion: u.version,
      });
    } catch (err) {
      if (isAppError(err) && err.code === 'NOT_FOUND') return; // removed meanwhile
      throw err;
    }
  },
};
