/** Request Guild Members (op 8): the guild's members that match, sent as GUILD_MEMBERS_CHUNK dispatches. */
import type { MembersRequest } from '../core/gateway/commands.js';
import { Intent } from '../core/gateway/intents.js';
import { MEMBERS_PER_CHUNK } from '../core/gateway/protocol.js';
import { botInGuild, guildMembers } from '../core/world/guild-members.js';
import { toWireGuildMember } from '../core/world/v10-objects.js';
import { botUsername } from '../core/world/wire.js';
import type { GatewayWorld } from './gateway-options.js';
import type { GuildCreateCache } from './guild-create-cache.js';
import type { Session } from './session.js';

export async function sendMemberChunks(
  store: GatewayWorld,
  guildCreates: GuildCreateCache,
  session: Session,
  request: MembersRequest,
): Promise<void> {
  const guild = await store.getGuild(request.guildId);
  if (!guild || !botInGuild(guild, session.applicationId)) return;
  let members = guildMembers(guild, await guildCreates.directory(guild));
  let notFound: string[] = [];
  if (request.userIds) {
    const wanted = new Set(request.userIds);
    members = members.filter((view) => wanted.has(view.member.user_id));
    const found = new Set(members.map((view) => view.member.user_id));
    notFound = request.userIds.filter((id) => !found.has(id));
  } else if (request.query !== null && request.query !== '') {
    const prefix = request.query.toLowerCase();
    members = members.filter((view) => {
      const name = (view.user?.username ?? (view.bot ? botUsername(view.bot) : '')).toLowerCase();
      return name.startsWith(prefix) || (view.member.nick?.toLowerCase().startsWith(prefix) ?? false);
    });
  } else if ((session.intents & Intent.GuildMembers) === 0) {
    // The whole member list needs GUILD_MEMBERS (v10): without it the answer is empty.
    members = [];
  }
  if (request.limit > 0) members = members.slice(0, request.limit);
  const chunkCount = Math.max(1, Math.ceil(members.length / MEMBERS_PER_CHUNK));
  for (let index = 0; index < chunkCount; index++) {
    const chunk = members.slice(index * MEMBERS_PER_CHUNK, (index + 1) * MEMBERS_PER_CHUNK);
    const d: Record<string, unknown> = {
      guild_id: guild.id,
      members: chunk.map((view) => toWireGuildMember(guild, view)),
      chunk_index: index,
      chunk_count: chunkCount,
    };
    if (index === 0 && notFound.length > 0) d.not_found = notFound;
    if (request.nonce !== null) d.nonce = request.nonce;
    session.dispatch('GUILD_MEMBERS_CHUNK', d);
  }
}
