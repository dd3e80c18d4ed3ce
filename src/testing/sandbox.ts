/**
 * `createSandbox()`: slashd in this process on a random loopback port with an in-memory store
 * (SQLite `:memory:`), and helpers to act as the world's users against the bot under test. Users
 * act through the same HTTP API as `slashd invoke` (the command found in the channel's command
 * index as that user, `POST /api/v10/interactions` with their token); the state is reset through
 * the admin API's snapshots, so a reset is one transaction.
 */
import { randomBytes } from 'node:crypto';
import { createSlashd, type Slashd } from '../app.js';
import type { Application, Channel, Guild, User, World } from '../core/world/types.js';
import type { RateLimitConfig } from '../rate-limits/config.js';
import { DEMO_WORLD } from '../world/demo-world.js';
import { readWorld } from '../world/world-file.js';
import { parseTypedCommand } from '../cli/invoke/command-line.js';
import { findCommand, invocationData, type IndexCommand } from '../cli/invoke/resolve-command.js';
import { findChannel, findUser } from '../cli/invoke/resolve-world.js';
import { expectStatus, requester, type Json, type Requester } from './http.js';
import { awaitInteraction, DEFAULT_OUTCOME_WAIT_MS, type InteractionOutcome, type WireMessage } from './outcome.js';

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

export interface InvokeOptions {
  /** A context-menu command's target: a user (name or id) or a message id. */
  target?: string;
  /** The guild, when several have a channel of that name. */
  guild?: string;
  waitMs?: number;
}

/** A message as the kit takes it for a click: one read from a channel or an outcome's `message`. */
export interface MessageRef {
  id: string;
  channel_id: string;
  application_id?: string;
  components?: Json[];
}

export interface ClickOptions {
  /** A select's chosen values (option values, or ids for user, role, mentionable and channel selects). */
  values?: string[];
  /** The component's type; found in the message's components by its custom_id when left out. */
  componentType?: number;
  waitMs?: number;
}

export interface FaultSpec {
  kind: string;
  /** Default: the sandbox's first application (the bot under test). */
  application_id?: string;
  [field: string]: unknown;
}

export interface Sandbox {
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
  /** `user` types `commandLine` (`/weather city:Paris`) in `channel`; resolves with what came of it. */
  invoke(user: string, channel: string, commandLine: string, options?: InvokeOptions): Promise<InteractionOutcome>;
  /** `user` uses the component `customId` of `message` (a button, or a select with `values`). */
  click(user: string, message: MessageRef, customId: string, options?: ClickOptions): Promise<InteractionOutcome>;
  /** `user` submits the modal an outcome opened, with a value for each text input (by custom_id). */
  submitModal(
    user: string,
    opened: InteractionOutcome,
    values: Record<string, string>,
    options?: { waitMs?: number },
  ): Promise<InteractionOutcome>;
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

/** Names and ids of the world, read once per change instead of once per action. */
class WorldNames {
  private world: World | null = null;

  constructor(private readonly slashd: Slashd) {}

  forget(): void {
    this.world = null;
  }

  async current(): Promise<World> {
    this.world ??= await this.slashd.store.world.exportWorld();
    return this.world;
  }

  async user(reference: string): Promise<User> {
    return findUser(await this.current(), reference);
  }

  async place(channel: string, guild?: string): Promise<{ guild: Guild; channel: Channel }> {
    return findChannel(await this.current(), channel, guild);
  }

  async application(reference?: string): Promise<Application> {
    const apps = (await this.current()).applications;
    const app = reference === undefined ? apps[0] : apps.find((a) => a.id === reference || a.name === reference);
    if (!app) throw new Error(`no application '${String(reference)}'; they are: ${apps.map((a) => a.name).join(', ')}`);
    return app;
  }
}

/** The component of this custom_id anywhere in a message's components (rows, sections, containers). */
function findComponent(components: readonly Json[] | undefined, customId: string): Json | null {
  for (const component of components ?? []) {
    if (component.custom_id === customId) return component;
    const inner = findComponent(
      [...((component.components as Json[] | undefined) ?? []), ...(component.accessory ? [component.accessory] : [])],
      customId,
    );
    if (inner) return inner;
  }
  return null;
}

/** The text inputs of a modal, each with the value given for it, in the modal's own layout. */
function modalComponents(modal: Json, values: Record<string, string>): Json[] {
  const input = (component: Json) => ({
    type: 4,
    custom_id: component.custom_id,
    value: values[component.custom_id] ?? '',
  });
  return ((modal.components as Json[] | undefined) ?? []).flatMap((row): Json[] => {
    if (row.type === 18 && row.component?.type === 4) return [{ type: 18, component: input(row.component as Json) }];
    const inputs = ((row.components as Json[] | undefined) ?? []).filter((c) => c.type === 4);
    return inputs.length > 0 ? [{ type: 1, components: inputs.map(input) }] : [];
  });
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
  const names = new WorldNames(slashd);
  const waitMs = options.outcomeWaitMs ?? DEFAULT_OUTCOME_WAIT_MS;
  const known = { apps: world.applications, users: world.users };

  /** Sends an interaction as `user` and waits for what came of it. */
  async function interact(
    user: User,
    channelId: string,
    body: Json,
    wait: number | undefined,
    clickedMessageId?: string,
  ): Promise<InteractionOutcome> {
    const accepted = expectStatus(
      await request('POST', '/api/v10/interactions', { auth: user.token, body }),
      `the interaction of ${user.username}`,
      200,
    );
    return awaitInteraction({
      request,
      userToken: user.token,
      channelId,
      guildId: (body.guild_id as string | undefined) ?? null,
      applicationId: (body.application_id as string | undefined) ?? null,
      interactionId: String(accepted.id),
      clickedMessageId,
      waitMs: wait ?? waitMs,
    });
  }

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
    world: () => names.current(),
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
    async invoke(userRef, channelRef, commandLine, invokeOptions = {}) {
      const user = await names.user(userRef);
      const { guild, channel } = await names.place(channelRef, invokeOptions.guild);
      const index = expectStatus(
        await request('GET', `/api/v10/channels/${channel.id}/application-command-index`, { auth: user.token }),
        `the command index of #${channel.name} as ${user.username}`,
        200,
      ) as Json;
      const contextMenu = invokeOptions.target !== undefined;
      const typed = contextMenu
        ? { path: [commandLine.trim().replace(/^\//, '')], options: [] }
        : parseTypedCommand(commandLine);
      const commands = (index.application_commands ?? []) as IndexCommand[];
      const command = findCommand(commands, typed.path[0]!, contextMenu);
      const data = invocationData(command, typed, { world: await names.current(), guild }, invokeOptions.target);
      const body = {
        type: 2,
        application_id: command.application_id,
        guild_id: guild.id,
        channel_id: channel.id,
        data,
      };
      return interact(user, channel.id, body, invokeOptions.waitMs);
    },
    async click(userRef, message, customId, clickOptions = {}) {
      const user = await names.user(userRef);
      const guild = (await slashd.store.world.findGuildByChannel(message.channel_id))?.id;
      const componentType = clickOptions.componentType ?? findComponent(message.components, customId)?.type ?? 2;
      const data: Json = { custom_id: customId, component_type: componentType };
      if (clickOptions.values) data.values = clickOptions.values;
      const body: Json = { type: 3, channel_id: message.channel_id, message_id: message.id, data };
      if (guild) body.guild_id = guild;
      if (message.application_id) body.application_id = message.application_id;
      return interact(user, message.channel_id, body, clickOptions.waitMs, message.id);
    },
    async submitModal(userRef, opened, values, submitOptions = {}) {
      if (!opened.modal)
        throw new Error(`interaction ${opened.id} opened no modal (its answer: ${JSON.stringify(opened.response)})`);
      const user = await names.user(userRef);
      const data = { custom_id: opened.modal.custom_id, components: modalComponents(opened.modal, values) };
      const body: Json = { type: 5, channel_id: opened.channel_id, data };
      if (opened.guild_id) body.guild_id = opened.guild_id;
      if (opened.application_id) body.application_id = opened.application_id;
      return interact(user, opened.channel_id, body, submitOptions.waitMs);
    },
    async messages(channelRef, readOptions = {}) {
      const { channel } = await names.place(channelRef, readOptions.guild);
      const reader =
        readOptions.as === undefined ? (await names.current()).users[0]! : await names.user(readOptions.as);
      const listed = expectStatus(
        await request('GET', `/api/v10/channels/${channel.id}/messages?limit=${readOptions.limit ?? 100}`, {
          auth: reader.token,
        }),
        `reading #${channel.name}`,
        200,
      ) as WireMessage[];
      return listed.reverse();
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
        const current = await names.current();
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
