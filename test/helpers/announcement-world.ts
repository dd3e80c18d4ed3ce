/** The example world with #announcements an announcement channel (type 5) everyone may post in. */
import { ChannelType } from 'discord-api-types/v10';
import type { World } from '../../src/core/world/types.js';
import { ANNOUNCEMENTS, exampleWorld, TEST_GUILD_ID } from './world.js';

export function announcementWorld(): World {
  const world = exampleWorld();
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID)!;
  const announcements = guild.channels.find((c) => c.id === ANNOUNCEMENTS)!;
  announcements.type = ChannelType.GuildAnnouncement;
  // Its bots may post there (the example world lets only admins).
  announcements.permission_overwrites = [];
  return world;
}
