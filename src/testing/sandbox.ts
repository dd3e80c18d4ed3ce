/**
 * `createSandbox()`: slashd in this process on a random loopback port with an in-memory store
 * (SQLite `:memory:`), and helpers to act as the world's users against the bot under test. Users
 * act through the same HTTP API as `slashd invoke` (the command found in the channel's command
 * index as that user, `POST /api/v10/interactions` with their token); the state is reset through
 * the admin API's snapshots, so a reset is one transaction.
 */
import { randomBytes } from 'node:crypto';
import { createSlashd, type Slashd } from '../app.js';
import type { World } from '../core/world/types.js';
import type { RateLimitConfig } from '../rate-limits/config.js';
import { DEMO_WORLD } from '../world/demo-world.js';
import { readWorld } from '../world/world-file.js';
import { findUser } from '../cli/invoke/resolve-world.js';
import { createActors, type Actors } from './actors.js';
import { expectStatus, requester, type Json, type Requester } from './http.js';
import { DEFAULT_OUTCOME_WAIT_MS, type WireMessage } from './outcome.js';

export type { ClickOptions, InvokeOptions, MessageRef } from './actors.js';

export interface SandboxOptions {
  /** The world (the world file's shape, docs/world.md); default: the demo world of `npm start`. */
  world?: World | Record<string, unknown>;
  /** v10 rate limits (docs/rate-limits.md); default: off, so tests meet only the 429s they inject. */
  rateLimits?: RateLimitConfig;
  /** pino's level for slashd's own log (default `silent`). */
  logLevel?: string;
  /** The longest wait for an interaction's outcome, in ms (default 5000). */
  outcomeWaitMs?: number;
}

/** Where an action happens: a channel by name (`general`, `#general`) or id, and the guild if names are shared. */
export interface Place {
  channel: string;
  guild?: string;
}

export interface FaultSpec {
  kind: string;
  /** Default: the sandbox's first application (the bot under test). */
  application_id?: string;
  [field: string]: unknown;
}

/** `invoke`, `click` and `submitModal`: the world's users acting (./actors.ts). */
export interface Sandbox extends Pick<Actors, 'invoke' | 'click' | 'submitModal'> {
  /** The server, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  /** What REST clients take as their API base: discord.js `rest: { api }`, @discordjs/rest `api`. */
  readonly restUrl: string;
  /** `${restUrl}/v10`. */
  readonly apiUrl: string;
  /** The gateway (bots normally find it through `GET /gateway/bot`). */
  readonly gatewayUrl: string;
  readonly adminToken: string;
  /** The running slashd, for what the helpers do not cover. */
  readonly slashd: Slashd;
  /** An application of the world (by name or id; default: the first): its id and bot token. */
  bot(reference?: string): { id: string; name: string; token: string };
  /** A user of the world (by name or id): id, username and user token. */
  user(reference: string): { id: string; username: string; token: string };
  /** The world as it is now. */
  world(): Promise<World>;
  /** Adds or replaces what `world` names (users, guilds, applications), as `POST /admin/world`. */
  mergeWorld(world: Partial<World>): Promise<World>;
  /** The world becomes `world`, as `PUT /admin/world`. */
  replaceWorld(world: World | Record<string, unknown>): Promise<World>;
  /** The channel's messages as `as` (a user; default the first) sees them, oldest first. */
  messages(channel: string, options?: { as?: string; guild?: string; limit?: number }): Promise<WireMessage[]>;
  /** The state now, as a snapshot: its id. */
  snapshot(): Promise<string>;
  restore(id: string): Promise<void>;
  /** Back to the state right after start (or to `world`), and no faults left. */
  reset(world?: World | Record<string, unknown>): Promise<void>;
  /** Injected faults (docs/faults.md): 429 bursts, 5xx, latency, gateway RECONNECT, ... */
  readonly faults: {
    add(spec: FaultSpec): Promise<Json>;
    list(): Promise<Json[]>;
    clear(): Promise<void>;
  };
  close(): Promise<void>;
}

export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const world = readWorld(structuredClone(options.world ?? DEMO_WORLD), "the sandbox's world");
  const adminToken = randomBytes(24).toString('base64url');
  const slashd = await createSlashd({
    db: ':memory:',
    world,
    adminToken,
    logLevel: options.logLevel ?? 'silent',
    rateLimits: options.rateLimits,
    snapshotAtStart: true,
  });
  let url: string;
  try {
    url = await slashd.listen({ host: '127.0.0.1', port: 0 });
  } catch (error) {
    await slashd.close();
    throw error;
  }
  const request: Requester = requester(url);
  const admin = (method: string, path: string, body?: unknown) =>
    request(method, `/admin${path}`, { auth: `Bearer ${adminToken}`, body });
  // The world's users act through the HTTP API, as they would against `slashd serve`.
  const names = createActors({ request, adminToken, waitMs: options.outcomeWaitMs ?? DEFAULT_OUTCOME_WAIT_MS });
  const known = { apps: world.applications, users: world.users };

  const sandbox: Sandbox = {
    url,
    restUrl: `${url}/api`,
    apiUrl: `${url}/api/v10`,
    gatewayUrl: url.replace(/^http/, 'ws'),
    adminToken,
    slashd,
    bot(reference) {
      const app =
        reference === undefined ? known.apps[0] : known.apps.find((a) => a.id === reference || a.name === reference);
      if (!app) throw new Error(`no application '${String(reference)}' in the sandbox's world`);
      return { id: app.id, name: app.name, token: app.bot_token };
    },
    user(reference) {
      const user = findUser({ ...world, users: known.users }, reference);
      return { id: user.id, username: user.username, token: user.token };
    },
    world: () => names.world(),
    async mergeWorld(partial) {
      names.forget();
      expectStatus(await admin('POST', '/world', partial), 'merging the world', 200);
      // The merge answers what changed; the world it made is read whole, as this answers it.
      const merged = expectStatus(await admin('GET', '/world'), 'reading the world', 200) as World;
      known.apps = merged.applications;
      known.users = merged.users;
      return merged;
    },
    async replaceWorld(next) {
      names.forget();
      const replaced = expectStatus(await admin('PUT', '/world', next), 'replacing the world', 200) as World;
      known.apps = replaced.applications;
      known.users = replaced.users;
      return replaced;
    },
    invoke: (user, channel, commandLine, invokeOptions) => names.invoke(user, channel, commandLine, invokeOptions),
    click: (user, message, customId, clickOptions) => names.click(user, message, customId, clickOptions),
    submitModal: (user, opened, values, submitOptions) => names.submitModal(user, opened, values, submitOptions),
    async messages(channelRef, readOptions = {}) {
      const { channel } = await names.place(channelRef, readOptions.guild);
      const reader = readOptions.as === undefined ? (await names.world()).users[0]! : await names.user(readOptions.as);
      return names.messages(channel.id, reader, readOptions.limit);
    },
    async snapshot() {
      return String((expectStatus(await admin('POST', '/snapshots'), 'taking a snapshot', 201) as Json).id);
    },
    async restore(id) {
      names.forget();
      expectStatus(await admin('POST', `/snapshots/${encodeURIComponent(id)}/restore`), 'restoring a snapshot', 204);
    },
    async reset(next) {
      names.forget();
      // In process, the fault table is cleared directly: one admin request instead of two.
      slashd.faults.clear();
      expectStatus(await admin('POST', '/reset', next === undefined ? undefined : { world: next }), 'resetting', 204);
      if (next !== undefined) {
        const current = await names.world();
        known.apps = current.applications;
        known.users = current.users;
      } else {
        known.apps = world.applications;
        known.users = world.users;
      }
    },
    faults: {
      async add(spec) {
        const body = { ...spec, application_id: spec.application_id ?? sandbox.bot().id };
        return expectStatus(await admin('POST', '/faults', body), 'adding a fault', 201) as Json;
      },
      async list() {
        return expectStatus(await admin('GET', '/faults'), 'listing the faults', 200) as Json[];
      },
      async clear() {
        expectStatus(await admin('DELETE', '/faults'), 'clearing the faults', 200);
      },
    },
    close: () => slashd.close(),
  };
  return sandbox;
}
