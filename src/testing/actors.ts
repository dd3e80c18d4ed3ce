/**
 * The world's users acting on a slashd through its HTTP API only, as `slashd invoke` and the
 * console do: a command typed in a channel (found in the channel's command index as that user,
 * then `POST /api/v10/interactions` with their token), a click, a modal submitted, a message
 * posted (with a file or not), a reaction. Names are read from the admin API's world once per
 * change. The sandbox (in process) and `slashd test` (in process or against `--url`) share it.
 */
import type { Application, Channel, Guild, User, World } from '../core/world/types.js';
import { parseTypedCommand } from '../cli/invoke/command-line.js';
import { findCommand, invocationData, type IndexCommand } from '../cli/invoke/resolve-command.js';
import { findChannel, findUser } from '../cli/invoke/resolve-world.js';
import { expectStatus, type Json, type Requester } from './http.js';
import { awaitInteraction, type InteractionOutcome, type WireMessage } from './outcome.js';

/** A message as the kit takes it for a click: one read from a channel or an outcome's `message`. */
export interface MessageRef {
  id: string;
  channel_id: string;
  application_id?: string;
  components?: Json[];
}

export interface InvokeOptions {
  /** A context-menu command's target: a user (name or id) or a message id. */
  target?: string;
  /** The guild, when several have a channel of that name. */
  guild?: string;
  waitMs?: number;
}

export interface ClickOptions {
  /** A select's chosen values (option values, or ids for user, role, mentionable and channel selects). */
  values?: string[];
  /** The component's type; found in the message's components by its custom_id when left out. */
  componentType?: number;
  waitMs?: number;
}

export interface Actors {
  /** The world as it is now (read once per change). */
  world(): Promise<World>;
  /** Forget the world read: it changed. */
  forget(): void;
  user(reference: string): Promise<User>;
  place(channel: string, guild?: string): Promise<{ guild: Guild; channel: Channel }>;
  application(reference?: string): Promise<Application>;
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
  /** `user` posts `content` in the channel, with a file when given; the message posted. */
  post(
    user: string,
    channelId: string,
    content: string,
    file?: { name: string; bytes: Uint8Array },
  ): Promise<WireMessage>;
  /** `user` reacts to a message with an emoji (unicode, or `name:id`). */
  react(user: string, message: MessageRef, emoji: string): Promise<void>;
  /** The channel's messages as `reader` sees them, oldest first. */
  messages(channelId: string, reader: User, limit?: number): Promise<WireMessage[]>;
}

/** The component of this custom_id anywhere in a message's components (rows, sections, containers). */
export function findComponent(
  components: readonly Json[] | undefined,
  found: (component: Json) => boolean,
): Json | null {
  for (const component of components ?? []) {
    if (found(component)) return component;
    const inner = findComponent(
      [...((component.components as Json[] | undefined) ?? []), ...(component.accessory ? [component.accessory] : [])],
      found,
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

export function createActors(options: { request: Requester; adminToken: string; waitMs: number }): Actors {
  const { request, adminToken } = options;
  let world: World | null = null;
  const current = async (): Promise<World> => {
    world ??= expectStatus(
      await request('GET', '/admin/world', { auth: `Bearer ${adminToken}` }),
      'reading the world',
      200,
    ) as World;
    return world;
  };
  const guildOf = async (channelId: string) =>
    (await current()).guilds.find((guild) => guild.channels.some((channel) => channel.id === channelId))?.id;

  /** Sends an interaction as `user` and waits for what came of it. */
  async function interact(user: User, channelId: string, body: Json, wait: number | undefined, clicked?: string) {
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
      clickedMessageId: clicked,
      waitMs: wait ?? options.waitMs,
    });
  }

  const actors: Actors = {
    world: current,
    forget() {
      world = null;
    },
    user: async (reference) => findUser(await current(), reference),
    place: async (channel, guild) => findChannel(await current(), channel, guild),
    async application(reference) {
      const apps = (await current()).applications;
      const app = reference === undefined ? apps[0] : apps.find((a) => a.id === reference || a.name === reference);
      if (!app)
        throw new Error(`no application '${String(reference)}'; they are: ${apps.map((a) => a.name).join(', ')}`);
      return app;
    },
    async invoke(userRef, channelRef, commandLine, invokeOptions = {}) {
      const user = await actors.user(userRef);
      const { guild, channel } = await actors.place(channelRef, invokeOptions.guild);
      const index = expectStatus(
        await request('GET', `/api/v10/channels/${channel.id}/application-command-index`, { auth: user.token }),
        `the command index of #${channel.name} as ${user.username}`,
        200,
      ) as Json;
      const contextMenu = invokeOptions.target !== undefined;
      const typed = contextMenu
        ? { path: [commandLine.trim().replace(/^\//, '')], options: [] }
        : parseTypedCommand(commandLine);
      const command = findCommand((index.application_commands ?? []) as IndexCommand[], typed.path[0]!, contextMenu);
      const data = invocationData(command, typed, { world: await current(), guild }, invokeOptions.target);
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
      const user = await actors.user(userRef);
      const guild = await guildOf(message.channel_id);
      const componentType =
        clickOptions.componentType ?? findComponent(message.components, (c) => c.custom_id === customId)?.type ?? 2;
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
      const user = await actors.user(userRef);
      const data = { custom_id: opened.modal.custom_id, components: modalComponents(opened.modal, values) };
      const body: Json = { type: 5, channel_id: opened.channel_id, data };
      if (opened.guild_id) body.guild_id = opened.guild_id;
      if (opened.application_id) body.application_id = opened.application_id;
      return interact(user, opened.channel_id, body, submitOptions.waitMs);
    },
    async post(userRef, channelId, content, file) {
      const user = await actors.user(userRef);
      if (!file) {
        return expectStatus(
          await request('POST', `/api/v10/channels/${channelId}/messages`, { auth: user.token, body: { content } }),
          `the message of ${user.username}`,
          200,
        ) as WireMessage;
      }
      return postWithFile(request, user, channelId, content, file);
    },
    async react(userRef, message, emoji) {
      const user = await actors.user(userRef);
      const path = `/api/v10/channels/${message.channel_id}/messages/${message.id}/reactions/${encodeURIComponent(emoji)}/@me`;
      expectStatus(await request('PUT', path, { auth: user.token }), `the reaction of ${user.username}`, 204);
    },
    async messages(channelId, reader, limit = 100) {
      const listed = expectStatus(
        await request('GET', `/api/v10/channels/${channelId}/messages?limit=${limit}`, { auth: reader.token }),
        `reading channel ${channelId}`,
        200,
      ) as WireMessage[];
      return listed.reverse();
    },
  };
  return actors;
}

/** A message with one attachment: multipart, `payload_json` and `files[0]`, as v10 clients send it. */
async function postWithFile(
  request: Requester,
  user: User,
  channelId: string,
  content: string,
  file: { name: string; bytes: Uint8Array },
): Promise<WireMessage> {
  const form = new FormData();
  form.set('payload_json', JSON.stringify({ content, attachments: [{ id: 0, filename: file.name }] }));
  form.set('files[0]', new Blob([file.bytes]), file.name);
  return expectStatus(
    await request('POST', `/api/v10/channels/${channelId}/messages`, { auth: user.token, form }),
    `the upload of ${user.username}`,
    200,
  ) as WireMessage;
}
