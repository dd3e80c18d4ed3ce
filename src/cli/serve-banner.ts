/**
 * What `slashd serve` prints once it listens: where each part is, the admin token, where each
 * app's interactions go, and with the demo world the next steps of a newcomer.
 */
import { resolve } from 'node:path';
import { ChannelType } from 'discord-api-types/v10';
import type { Slashd } from '../app.js';
import { DEMO_WORLD } from '../world/demo-world.js';
import { adminTokenPath } from './admin-token.js';
import { DEFAULT_URL } from './client.js';
import type { Output } from './usage.js';
import { deliveryRoutes } from '../resources/gateway/delivery-lookup.js';
import { applicationLines, worldLines } from './world-text.js';
import { DEFAULT_DB } from './database-args.js';
import { isPostgresUrl, redactPostgresUrl } from '../store/postgres/url.js';
import { redactRedisUrl } from '../events/redis-link.js';
import type { ServeArgs } from './serve-args.js';

/** Shell quoting for a printed command line: single quotes unless the word is plain. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Whether `slashd invoke` finds this server's admin token without being told (the default database). */
function tokenFoundByDefault(args: ServeArgs): boolean {
  const path = adminTokenPath(args.db);
  const defaultPath = adminTokenPath(DEFAULT_DB);
  return (
    args.adminToken === undefined && path !== null && defaultPath !== null && resolve(path) === resolve(defaultPath)
  );
}

/**
 * The next step after `npm start`: the example app, then a `slashd invoke` line that works against
 * the demo world as printed (the URL and admin token are only spelled out when not the defaults).
 */
export function nextStepLines(url: string, args: ServeArgs): string[] {
  const guild = DEMO_WORLD.guilds[0];
  const user = DEMO_WORLD.users.find((u) => u.id === guild.owner_id)!;
  const channel = guild.channels.find((c) => c.type === (ChannelType.GuildText as number))!;
  const urlWords = url === DEFAULT_URL ? [] : ['--url', url];
  // The admin token is never printed: the line names the file it is kept in, or the operator's own.
  const kept = adminTokenPath(args.db);
  const tokenWords = tokenFoundByDefault(args)
    ? []
    : args.adminToken === undefined && kept !== null
      ? ['--admin-token-file', kept]
      : ['--admin-token', '<your admin token>'];
  const app = ['node', 'examples/hello-app.js', ...urlWords];
  const invoke = [
    'node',
    'bin/slashd.js',
    'invoke',
    '--as',
    user.username,
    '--channel',
    channel.name,
    ...urlWords,
    ...tokenWords,
    '/hello name:world',
  ];
  const world = ['node', 'bin/slashd.js', 'world', ...urlWords, ...tokenWords];
  const bot = DEMO_WORLD.applications[0];
  return [
    'next steps:',
    '  1. in another terminal, start the example app: it registers /hello for "Demo Bot" and answers it',
    `     $ ${app.map(shellWord).join(' ')}`,
    `  2. invoke /hello as ${user.username} in #${channel.name}, and read the app's answer:`,
    `     $ ${invoke.map(shellWord).join(' ')}`,
    '  3. stop the example with Ctrl-C (it clears the interactions endpoint it set), then log in your own bot',
    `     with "${bot.name}"'s bot token, which this prints with every user's:`,
    `     $ ${world.map(shellWord).join(' ')}`,
    '     it gets the interactions over the gateway (README: "Your own bot on the gateway")',
    "  your own HTTP-interactions app: give it the application's verify_key (GET /api/v10/applications/@me), then",
    `  PATCH ${url}/api/v10/applications/@me {"interactions_endpoint_url": "<your URL>"} with "Authorization: Bot <its bot token>";`,
    '  acting as a user with curl or slashd invoke: docs/invoking.md',
  ];
}

export async function printBanner(slashd: Slashd, url: string, args: ServeArgs, out: Output): Promise<void> {
  out.log(`slashd listening on ${url}`);
  out.log(`  API base:    ${url}/api/v10`);
  out.log(`  health:      ${url}/healthz, ${url}/readyz`);
  out.log(`  metrics:     ${url}/metrics (Authorization: Bearer <metrics or admin token>)`);
  out.log(`  gateway:     ${slashd.gateway.url(undefined)}`);
  out.log(
    `  console:     ${url}/console${args.demo ? ' (sandbox sign-in: pick a user of the demo world)' : ' (sign in with a user token)'}`,
  );
  if (isPostgresUrl(args.db)) {
    out.log(`  database:    PostgreSQL ${redactPostgresUrl(args.db)}, schema ${args.dbSchema}`);
  }
  if (args.redisUrl !== undefined) {
    out.log(`  redis:       ${redactRedisUrl(args.redisUrl)}, prefix ${args.redisPrefix} (shared with other nodes)`);
  }
  // No token in the banner, whatever the format: standard output ends up in logs. The admin token is
  // named by its file; the world's tokens are for `slashd world`, which asks the admin API for them.
  if (args.adminToken === undefined) {
    const kept = adminTokenPath(args.db);
    out.log(
      kept
        ? `  admin token: kept in ${kept} (the client commands read it there)`
        : '  admin token: not shown (an in-memory database keeps none: give one with --admin-token)',
    );
  }
  // Per app, where its interactions go: a bot that gets none is most often an endpoint left set.
  // Only the demo's banner shows the whole world: a large one (every guild with its members) is not
  // read at each start.
  const applications = await slashd.store.world.listApplications();
  const routes = await deliveryRoutes(applications, slashd.gateway);
  if (!args.demo) {
    out.log('applications:');
    // Not the demo: bot tokens are secrets and stay out of the output (`slashd world` shows them to the admin).
    for (const line of applicationLines(applications, routes, { tokens: false })) out.log(line);
    out.log('  `slashd world` lists the users, guilds and channels of this world');
    return;
  }
  for (const line of worldLines(await slashd.store.world.exportWorld(), routes, { tokens: false })) out.log(line);
  for (const line of nextStepLines(url, args)) out.log(line);
}
