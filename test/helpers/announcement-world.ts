/**
 * The example world with #announcements an announcement channel (type 5) everyone may post in,
 * holding one world-file message of Alice's (`ANNOUNCEMENT_MESSAGE`).
 */
import { ChannelType } from 'discord-api-types/v10';
import type { World } from '../../src/core/world/types.js';
import { ALICE_ID, ANNOUNCEMENTS, exampleWorld, TEST_GUILD_ID } from './world.js';

/** Alice's message in #announcements, of the world file. */
export const ANNOUNCEMENT_MESSAGE = '1345183757107200101';

export function announcementWorld(): World {
  const world = exampleWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  const announcements = guild.channels.find((c) => c.id === ANNOUNCEMENTS)!;
  announcements.type = ChannelType.GuildAnnouncement;
  // Its bots may post there (the example world lets only admins).
  announcements.permission_overwrites = [];
  guild.messages.push({ id: ANNOUNCEMENT_MESSAGE, channel_id: ANNOUNCEMENTS, author_id: ALICE_ID, content: 'Welcome' });
  return world;
}
