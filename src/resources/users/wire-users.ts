/** Users as v10 objects that name them (a ban, an audit log): a world user, or an app's bot. */
import type { APIUser } from 'discord-api-types/v10';
import { toWirePublicBot, toWirePublicUser } from '../../core/world/wire.js';
import type { WirePayload } from '../../core/wire-payload.js';
import type { WorldStore } from '../../store/store.js';

export type UserDirectory = Pick<WorldStore, 'getUser' | 'getApplication'>;

/** The user as a v10 object shows it: a world user or an app's bot; null for no one. */
export async function wirePublicUserOrBot(store: UserDirectory, userId: string): Promise<WirePayload<APIUser> | null> {
  const user = await store.getUser(userId);
  if (user) return toWirePublicUser(user);
  const app = await store.getApplication(userId);
  return app ? toWirePublicBot(app) : null;
}
