/** A world as text for a person: who can act (users and their tokens), where (guilds, channels), and which apps. */
import type { Application, Guild, User, World } from '../core/world/types.js';
import { deliveryRouteText, type DeliveryRoute } from '../resources/gateway/delivery-lookup.js';

/** Channel types shown with their name (v10 channel types). */
const CHANNEL_KINDS: Readonly<Record<number, string>> = {
  0: 'text',
  2: 'voice',
  4: 'category',
  5: 'announcement',
  10: 'thread',
  11: 'thread',
  12: 'private thread',
  13: 'stage',
  15: 'forum',
};

export function userLines(users: readonly User[], { tokens = true }: { tokens?: boolean } = {}): string[] {
  const width = Math.max(0, ...users.map((u) => u.username.length));
  return users.map((u) => `  ${u.username.padEnd(width)}  id ${u.id}${tokens ? `  token ${u.token}` : ''}`);
}

/**
 * Each app with its bot token and where its interactions go: its endpoint, or the gateway and
 * whether a bot is connected (`routes`, from GET /admin/delivery; without them, the endpoint alone).
 */
export function applicationLines(
  apps: readonly Application[],
  routes?: readonly DeliveryRoute[],
  { tokens = true }: { tokens?: boolean } = {},
): string[] {
  return apps.flatMap((app) => {
    const route = routes?.find((r) => r.application_id === app.id);
    const where = route
      ? deliveryRouteText(route)
      : app.interactions_endpoint_url
        ? `interactions → endpoint ${app.interactions_endpoint_url}`
        : 'interactions → gateway (no interactions endpoint)';
    return [`  "${app.name}"  id ${app.id}${tokens ? `  bot token ${app.bot_token}` : ''}`, `    ${where}`];
  });
}

export function guildLines(guild: Guild, apps: readonly Application[], users: readonly User[]): string[] {
  const lines = [`  "${guild.name}"  id ${guild.id}`];
  const width = Math.max(0, ...guild.channels.map((c) => c.name.length + 1));
  for (const channel of guild.channels) {
    lines.push(
      `    ${`#${channel.name}`.padEnd(width)}  id ${channel.id}  (${CHANNEL_KINDS[channel.type] ?? `type ${channel.type}`})`,
    );
  }
  const members = guild.members.map((m) => users.find((u) => u.id === m.user_id)?.username ?? m.user_id);
  lines.push(`    members: ${members.join(', ') || '(none)'}`);
  const installed = guild.installs.map((i) => apps.find((a) => a.id === i.application_id)?.name ?? i.application_id);
  lines.push(`    installed apps: ${installed.join(', ') || '(none)'}`);
  return lines;
}

export function worldLines(
  world: World,
  routes?: readonly DeliveryRoute[],
  { tokens = true }: { tokens?: boolean } = {},
): string[] {
  return [
    'users (act as one with `slashd invoke --as NAME`, or send its token as the Authorization header):',
    ...userLines(world.users, { tokens }),
    'guilds and channels:',
    ...world.guilds.flatMap((guild) => guildLines(guild, world.applications, world.users)),
    'applications:',
    ...applicationLines(world.applications, routes, { tokens }),
  ];
}
