/**
 * Fixtures for the interaction tests: the reference world and a few commands that use every
 * option type and rule. Every function returns fresh objects.
 */
import {
  CommandType,
  OptionType,
  type CommandDefinition,
  type OptionDefinition,
  type StoredCommand,
} from '../src/core/commands/model.js';
import { commandDefinition } from './helpers/commands.js';
import type { InvocationTarget } from '../src/resources/interactions/rules/check-invocation.js';
import type { Channel, Guild, User } from '../src/core/world/types.js';
import { DEMO_APP_ID as APP_ID, GENERAL, TEST_GUILD_ID as GUILD_ID, exampleWorld } from './helpers/world.js';

export {
  DEMO_APP_ID as APP_ID,
  TEST_GUILD_ID as GUILD_ID,
  ALICE_ID as ALICE,
  BOB_ID as BOB,
  CAROL_ID as CAROL,
  ERIN_ID as ERIN,
  ADMIN_ROLE,
  MODERATOR_ROLE,
  CATEGORY,
  GENERAL,
  NSFW_LOUNGE,
  THREAD,
  HELLO_MESSAGE,
  NOBODY,
} from './helpers/world.js';

export const COMMAND_ID = '1350000000000000001';
export const COMMAND_VERSION = '1350000000000000002';
/** The id of the interaction the build and message tests make. */
export const INTERACTION_ID = '1370000000000000001';

export function world() {
  return exampleWorld();
}

export function testGuild(): Guild {
  const guild = world().guilds.find((candidate) => candidate.id === GUILD_ID);
  if (!guild) throw new Error('test guild missing');
  return guild;
}

export function channelOf(guild: Guild, id: string): Channel {
  const channel = guild.channels.find((candidate) => candidate.id === id);
  if (!channel) throw new Error(`channel ${id} missing`);
  return channel;
}

export function users(): User[] {
  return world().users;
}

export function userOf(id: string): User {
  const user = users().find((candidate) => candidate.id === id);
  if (!user) throw new Error(`user ${id} missing`);
  return user;
}

/** Invoking in #general of the test guild. */
export function guildTarget(channelId = GENERAL): InvocationTarget {
  const guild = testGuild();
  return { guild, channel: channelOf(guild, channelId), messages: guild.messages, users: users() };
}

/** Invoking in a DM with the bot: no guild, one channel. */
export function dmTarget(): InvocationTarget {
  const channel: Channel = {
    id: '1360000000000000001',
    type: 1,
    name: '',
    nsfw: false,
    parent_id: null,
    permission_overwrites: [],
  };
  return { guild: null, channel, messages: [], users: users() };
}

export function option(
  type: OptionDefinition['type'],
  name: string,
  extra: Partial<OptionDefinition> = {},
): OptionDefinition {
  return {
    type,
    name,
    name_localizations: null,
    description: `the ${name}`,
    description_localizations: null,
    ...extra,
  };
}

export function definition(extra: Partial<CommandDefinition> = {}): CommandDefinition {
  return commandDefinition({ name: 'demo', description: 'a demo', integration_types: [0], contexts: [0, 1], ...extra });
}

export function stored(def: CommandDefinition, guildId: string | null = null): StoredCommand {
  return { id: COMMAND_ID, application_id: APP_ID, guild_id: guildId, version: COMMAND_VERSION, definition: def };
}

/** A CHAT_INPUT command with one option of every type and every value rule. */
export function everyOptionCommand(): StoredCommand {
  return stored(
    definition({
      name: 'demo',
      name_localizations: { fr: 'démo' },
      options: [
        option(OptionType.String, 'text', {
          required: true,
          min_length: 2,
          max_length: 10,
          name_localizations: { fr: 'texte' },
        }),
        option(OptionType.Integer, 'count', { min_value: 1, max_value: 100 }),
        option(OptionType.Number, 'ratio', { min_value: 0, max_value: 1 }),
        option(OptionType.Boolean, 'flag'),
        option(OptionType.User, 'who'),
        option(OptionType.Channel, 'where', { channel_types: [0] }),
        option(OptionType.Channel, 'anywhere'),
        option(OptionType.Role, 'role'),
        option(OptionType.Mentionable, 'any'),
        option(OptionType.Attachment, 'file'),
        option(OptionType.String, 'size', {
          choices: [
            { name: 'Small', name_localizations: null, value: 'small' },
            { name: 'Large', name_localizations: null, value: 'large' },
          ],
        }),
        option(OptionType.Integer, 'level', {
          choices: [
            { name: 'One', name_localizations: null, value: 1 },
            { name: 'Two', name_localizations: null, value: 2 },
          ],
        }),
        option(OptionType.String, 'query', { autocomplete: true, max_length: 5 }),
        option(OptionType.Integer, 'amount', { autocomplete: true, min_value: 100 }),
        option(OptionType.Number, 'weight', { autocomplete: true }),
        option(OptionType.Integer, 'big'),
        option(OptionType.Number, 'huge'),
        option(OptionType.String, 'note'),
      ],
    }),
  );
}

/** A command with a group of two subcommands, a plain subcommand and a group with none. */
export function subcommandCommand(): StoredCommand {
  return stored(
    definition({
      name: 'admin',
      options: [
        option(OptionType.SubcommandGroup, 'config', {
          options: [
            option(OptionType.Subcommand, 'set', {
              options: [
                option(OptionType.String, 'key', { required: true }),
                option(OptionType.String, 'value', { autocomplete: true }),
              ],
            }),
            option(OptionType.Subcommand, 'get', { options: [option(OptionType.String, 'key', { required: true })] }),
          ],
        }),
        option(OptionType.Subcommand, 'ping', { options: [] }),
        option(OptionType.SubcommandGroup, 'empty', { options: [] }),
      ],
    }),
    GUILD_ID,
  );
}

export function userCommand(): StoredCommand {
  return stored(
    definition({ type: CommandType.User, name: 'Inspect', description: '', name_localizations: { fr: 'Inspecter' } }),
  );
}

export function messageCommand(): StoredCommand {
  return stored(definition({ type: CommandType.Message, name: 'Quote', description: '' }));
}

/** The `data` a client sends for `command`, with the given options. */
export function invocationData(command: StoredCommand, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: command.id,
    name: command.definition.name,
    type: command.definition.type,
    version: command.version,
    ...extra,
  };
}
