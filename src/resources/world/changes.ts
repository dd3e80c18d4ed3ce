/**
 * The reads a world change needs, and only those (never the whole world): the stored versions of
 * the objects an addition names, the stored objects it refers to or collides with (for the
 * world-wide rules), and the part of the world its events are computed from.
 */
import type { Application, Guild, OAuth2Token, User, World } from '../../core/world/types.js';
import {
  applyChange,
  emptyWorld,
  WORLD_LISTS,
  worldKey,
  type StoredVersions,
  type WorldChange,
  type WorldCounts,
} from '../../core/world/world-change.js';
import type { GuildMemberStore, StoredApplication, WorldStore } from '../../store/store.js';

/** An application as the world file has it: without the signing keys. */
export function withoutKeys({ keys: _keys, ...app }: StoredApplication): Application {
  return app;
}

async function applicationsOf(store: WorldStore, ids: Iterable<string>): Promise<Application[]> {
  const found: Application[] = [];
  for (const id of new Set(ids)) {
    const app = await store.getApplication(id);
    if (app) found.push(withoutKeys(app));
  }
  return found;
}

/** A pre-issued token as the world file has it; null for a token issued by a grant (it expires). */
async function storedToken(store: WorldStore, accessToken: string): Promise<OAuth2Token | null> {
  const found = await store.findOAuth2Token(accessToken);
  if (!found || found.expires_at !== null) return null;
  return {
    access_token: found.access_token,
    user_id: found.user_id,
    application_id: found.application_id,
    scopes: found.scopes,
  };
}

/** The stored versions of the objects `addition` names (a guild with every member: it is compared whole). */
export async function storedVersionsOf(store: WorldStore, addition: World): Promise<StoredVersions> {
  const guilds = new Map<string, Guild>();
  for (const { id } of addition.guilds) {
    const guild = guilds.has(id) ? null : await store.getGuild(id);
    if (guild) guilds.set(id, guild);
  }
  const tokens = new Map<string, OAuth2Token>();
  for (const { access_token } of addition.oauth2_tokens) {
    const token = tokens.has(access_token) ? null : await storedToken(store, access_token);
    if (token) tokens.set(access_token, token);
  }
  const apps = await applicationsOf(
    store,
    addition.applications.map((a) => a.id),
  );
  const users = await store.getUsers(addition.users.map((u) => u.id));
  return {
    applications: new Map(apps.map((a) => [a.id, a])),
    users: new Map(users.map((u) => [u.id, u])),
    guilds,
    oauth2_tokens: tokens,
  };
}

/** Every user (or, for a thread member, application) id the addition refers to. */
function referencedIds(addition: World): { users: Set<string>; applications: Set<string> } {
  const users = new Set<string>();
  const applications = new Set<string>();
  for (const app of addition.applications) users.add(app.owner_id);
  for (const guild of addition.guilds) {
    users.add(guild.owner_id);
    for (const member of guild.members) users.add(member.user_id);
    for (const install of guild.installs) applications.add(install.application_id);
    for (const channel of guild.channels) {
      for (const id of channel.thread_member_ids ?? []) {
        users.add(id);
        applications.add(id);
      }
    }
  }
  for (const token of addition.oauth2_tokens) {
    applications.add(token.application_id);
    if (token.user_id !== null) users.add(token.user_id);
  }
  for (const dm of addition.group_dms ?? []) for (const id of dm.recipients) users.add(id);
  return { users, applications };
}

/**
 * The stored objects the addition's consistency depends on, none of them one it replaces: those it
 * refers to, and those holding a token one of its objects has.
 */
export async function additionContext(store: WorldStore, addition: World): Promise<World> {
  const postedUsers = new Set(addition.users.map((u) => u.id));
  const postedApps = new Set(addition.applications.map((a) => a.id));
  const referenced = referencedIds(addition);
  const users = new Map<string, User>();
  for (const user of await store.getUsers([...referenced.users].filter((id) => !postedUsers.has(id)))) {
    users.set(user.id, user);
  }
  for (const { token } of addition.users) {
    const holder = await store.findUserByToken(token);
    if (holder && !postedUsers.has(holder.id)) users.set(holder.id, holder);
  }
  const applications = new Map<string, Application>();
  const unposted = [...referenced.applications].filter((id) => !postedApps.has(id));
  for (const app of await applicationsOf(store, unposted)) applications.set(app.id, app);
  for (const { bot_token } of addition.applications) {
    const holder = await store.findApplicationByBotToken(bot_token);
    if (holder && !postedApps.has(holder.id)) applications.set(holder.id, withoutKeys(holder));
  }
  return { ...emptyWorld(), applications: [...applications.values()], users: [...users.values()] };
}

/** How many stored objects of each list a merge keeps beside the addition: those it does not replace. */
export async function keptCounts(store: WorldStore, addition: World, stored: StoredVersions): Promise<WorldCounts> {
  const counts = await store.countWorld();
  for (const list of WORLD_LISTS) {
    const key = worldKey[list] as (item: World[typeof list][number]) => string;
    const replaced = new Set(
      (addition[list] as World[typeof list][number][]).map(key).filter((id) => stored[list].has(id)),
    );
    counts[list] -= replaced.size;
  }
  return counts;
}

/**
 * The part of the world an addition's change can alter for bots, before and after it: the guilds
 * it writes (whole), the guilds where a user it changes is a member (that member alone) or an
 * application it changes has its bot (no member), with the users and applications they name.
 */
export async function changeSlices(
  store: WorldStore,
  members: Pick<GuildMemberStore, 'guildIdsOfMember' | 'getGuildWithMembers'>,
  change: WorldChange,
  stored: StoredVersions,
): Promise<{ before: World; after: World }> {
  const written = new Set(change.put.guilds.map((g) => g.id));
  const others = new Map<string, Set<string>>();
  const touch = (guildId: string, userId?: string) => {
    if (written.has(guildId)) return;
    const members = others.get(guildId) ?? new Set<string>();
    if (userId !== undefined) members.add(userId);
    others.set(guildId, members);
  };
  // New users and applications too: a member row or an install may name one deleted before.
  for (const user of change.put.users) {
    for (const guildId of await members.guildIdsOfMember(user.id)) touch(guildId, user.id);
  }
  for (const app of change.put.applications) {
    for (const guild of await store.guildsOfApplication(app.id)) touch(guild.id);
  }
  const guilds: Guild[] = change.put.guilds.flatMap((g) => stored.guilds.get(g.id) ?? []);
  for (const [guildId, ids] of others) {
    const guild = await members.getGuildWithMembers(guildId, [...ids]);
    if (guild) guilds.push({ ...guild, messages: [] });
  }
  const named = [...guilds, ...change.put.guilds];
  const userIds = named.flatMap((g) => g.members.map((m) => m.user_id)).concat(change.put.users.map((u) => u.id));
  const appIds = named.flatMap((g) => g.installs.map((i) => i.application_id));
  const before: World = {
    applications: await applicationsOf(store, appIds.concat(change.put.applications.map((a) => a.id))),
    users: await store.getUsers(userIds),
    guilds,
    oauth2_tokens: [],
  };
  const after = applyChange(before, { put: { ...change.put, oauth2_tokens: [] }, remove: change.remove });
  // In the order of the whole world's guilds, so that the events come in the order its diff gives.
  for (const side of [before, after]) side.guilds.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { before, after };
}
