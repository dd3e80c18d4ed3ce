/** Users as v10 objects that name them (a ban, an audit log): a world user, or an app's bot. */
import { toWirePublicBot, toWirePublicUser } from '../../core/world/wire.js';
import type { WorldStore } from '../../store/store.js';

export type UserDirectory = Pick<WorldStore, 'getUser' | 'getApplication'>;

/** The user as a v10 object shows it: a world user or an app's bot; null for no one. */
export async function wirePublicUserOrBot(
  store: UserDirectory,
  userId: string,
): Promise<Record<string, unknown> | null> {
  const user = await store.getUser(userId);
  if (user) return toWirePublicUser(user);
  const app = await store.getApplication(userId);
  return app ? toWirePublicBot(app) : null;
}
