/**
 * The slashd a run replays against, and the bot under test: slashd started in this process (or one
 * at `url` with its admin token), the bot started by a command line when one is given, and the wait
 * until the bot is ready: its app has a gateway session or an interactions endpoint, and commands.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as pause } from 'node:timers/promises';
import type { Application, World } from '../../core/world/types.js';
import { loadWorldFile } from '../../world/world-file.js';
import { createActors, type Actors } from '../actors.js';
import { expectStatus, requester, type Json, type Requester } from '../http.js';
import { DEFAULT_OUTCOME_WAIT_MS } from '../outcome.js';
import { createSandbox, type Sandbox } from '../sandbox.js';

/** The longest wait for the bot under test to be ready, by default, in ms (a discord.js login and a deploy). */
export const DEFAULT_READY_TIMEOUT_MS = 30_000;
/** The longest wait for a stopped bot to exit before it is killed, in ms. */
const BOT_STOP_MS = 10_000;
/** Between two checks of the bot's readiness, in ms. */
const READY_POLL_MS = 50;

export interface TargetOptions {
  /** A running slashd; default: one started in this process, on loopback. */
  url?: string | undefined;
  /** The admin token of the slashd at `url`. */
  adminToken?: string | undefined;
  /** In process: the world slashd starts with (a world file, or its value); default the demo world. */
  world?: string | World | Record<string, unknown> | undefined;
  /**
   * A shell command line starting the bot under test, with SLASHD_URL, SLASHD_API_URL (…/api/v10),
   * SLASHD_REST_URL (…/api), SLASHD_BOT_TOKEN and SLASHD_APPLICATION_ID in its environment; stopped
   * after the run. Default: none (the bot is started by whoever runs the scenarios).
   */
  bot?: string | undefined;
  /** The application under test (name or id); default the world's first. */
  application?: string | undefined;
  readyTimeoutMs?: number | undefined;
}

export interface Target {
  url: string;
  adminToken: string;
  request: Requester;
  actors: Actors;
  app: Application;
  ownCalls: OwnCalls;
  close(): Promise<void>;
}

function startBot(command: string, env: Record<string, string>): ChildProcess {
  // Its own process group: stopping it stops what its shell started.
  return spawn(command, {
    shell: true,
    detached: true,
    stdio: ['ignore', process.stderr, process.stderr],
    env: { ...process.env, ...env },
  });
}

/** Whether any process of the group is left. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to the bot's process group, and the wait until all of it is gone (a bot may tidy up first), bounded. */
async function stopBot(bot: ChildProcess): Promise<void> {
  const pid = bot.pid;
  if (pid === undefined || !groupAlive(pid)) return;
  process.kill(-pid, 'SIGTERM');
  const deadline = performance.now() + BOT_STOP_MS;
  while (groupAlive(pid) && performance.now() < deadline) await pause(READY_POLL_MS);
  if (groupAlive(pid)) process.kill(-pid, 'SIGKILL');
}

/** Whether the app's bot can be reached (a gateway session, or an endpoint) and has registered commands. */
async function readiness(
  request: Requester,
  adminToken: string,
  app: Application,
  guildIds: readonly string[],
  own: OwnCalls,
) {
  const routes = expectStatus(
    await request('GET', '/admin/delivery', { auth: `Bearer ${adminToken}` }),
    'reading the delivery routes',
    200,
  ) as Json[];
  const route = routes.find((r) => r.application_id === app.id);
  const reachable =
    route !== undefined && (route.interactions_endpoint_url !== null || route.gateway_connected === true);
  const commands = await appCommands(request, app, guildIds, own);
  return { reachable, commands: commands.length > 0 };
}

/** The routes the runner itself calls with the bot's token: not the bot's doing, taken out of its coverage. */
export const OWN_ROUTES = {
  global: 'GET /applications/{application.id}/commands',
  guild: 'GET /applications/{application.id}/guilds/{guild.id}/commands',
} as const;

/** How often the runner called each of OWN_ROUTES. */
export type OwnCalls = Map<string, number>;

function countOwn(own: OwnCalls, route: string, times: number): void {
  own.set(route, (own.get(route) ?? 0) + times);
}

/** The app's commands, global and in each guild, as its bot reads them. */
export async function appCommands(
  request: Requester,
  app: Application,
  guildIds: readonly string[],
  own: OwnCalls,
): Promise<Json[]> {
  const auth = `Bot ${app.bot_token}`;
  const global = await request('GET', `/api/v10/applications/${app.id}/commands`, { auth });
  const perGuild = await Promise.all(
    guildIds.map((id) => request('GET', `/api/v10/applications/${app.id}/guilds/${id}/commands`, { auth })),
  );
  countOwn(own, OWN_ROUTES.global, 1);
  countOwn(own, OWN_ROUTES.guild, guildIds.length);
  return [global, ...perGuild].flatMap((answer) => (answer.status === 200 ? (answer.body as Json[]) : []));
}

async function awaitReady(
  target: Omit<Target, 'close'>,
  timeoutMs: number,
  botExit: () => string | null,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  const guildIds = (await target.actors.world()).guilds.map((guild) => guild.id);
  for (;;) {
    const ready = await readiness(target.request, target.adminToken, target.app, guildIds, target.ownCalls);
    if (ready.reachable && ready.commands) return;
    const exit = botExit();
    if (exit !== null) throw new Error(`the bot under test exited (${exit}) before it was ready`);
    if (performance.now() >= deadline) {
      const missing = ready.reachable
        ? 'it registered no command'
        : 'it has no gateway session and no interactions endpoint';
      throw new Error(`the bot of ${target.app.name} was not ready within ${timeoutMs} ms: ${missing}`);
    }
    await pause(READY_POLL_MS);
  }
}

export async function openTarget(options: TargetOptions): Promise<Target> {
  let sandbox: Sandbox | null = null;
  let url = options.url?.replace(/\/+$/, '');
  let adminToken = options.adminToken;
  if (url === undefined) {
    const world = typeof options.world === 'string' ? loadWorldFile(options.world) : options.world;
    sandbox = await createSandbox(world === undefined ? {} : { world });
    url = sandbox.url;
    adminToken = sandbox.adminToken;
  }
  if (adminToken === undefined)
    throw new Error('a slashd at a URL needs its admin token (--admin-token or SLASHD_ADMIN_TOKEN)');
  const request = requester(url);
  const actors = createActors({ request, adminToken, waitMs: DEFAULT_OUTCOME_WAIT_MS });
  let bot: ChildProcess | null = null;
  const close = async () => {
    if (bot) await stopBot(bot);
    await sandbox?.close();
  };
  try {
    const app = await actors.application(options.application);
    const target = { url, adminToken, request, actors, app, ownCalls: new Map<string, number>() };
    if (options.bot) {
      bot = startBot(options.bot, {
        SLASHD_URL: url,
        SLASHD_API_URL: `${url}/api/v10`,
        SLASHD_REST_URL: `${url}/api`,
        SLASHD_BOT_TOKEN: app.bot_token,
        SLASHD_APPLICATION_ID: app.id,
      });
    }
    const started = bot;
    const exit = () => (started && started.exitCode !== null ? `exit status ${started.exitCode}` : null);
    await awaitReady(target, options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS, exit);
    return { ...target, close };
  } catch (error) {
    await close();
    throw error;
  }
}
