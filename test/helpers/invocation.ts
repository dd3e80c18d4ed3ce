/**
 * The body of POST /interactions, as a user invokes a command: by default the demo app's command
 * in #general of the test guild. Options change the target; `data` adds to the command's data
 * (options, target_id, …).
 */
import type { Json } from './json.js';
import { DEMO_APP_ID, GENERAL, TEST_GUILD_ID } from './world.js';

/** A command as the commands API returns it (only what an invocation names). */
export interface InvokedCommand {
  id: string;
  name: string;
  /** CHAT_INPUT (1) when absent. */
  type?: number | undefined;
  version: string;
}

export interface InvocationOptions {
  /** The interaction type: APPLICATION_COMMAND (2) unless given. */
  type?: number | undefined;
  applicationId?: string | undefined;
  /** null: a channel in no guild (a DM), and the body has no guild_id. */
  guildId?: string | null | undefined;
  channelId?: string | undefined;
  nonce?: string | undefined;
  /** More fields of `data`, after the command's. */
  data?: Json | undefined;
}

/** `command` may be a parsed response body (Json) as well. */
export function invocationBody(command: InvokedCommand | Json, options: InvocationOptions = {}): Json {
  const guildId = options.guildId === undefined ? TEST_GUILD_ID : options.guildId;
  return {
    type: options.type ?? 2,
    application_id: options.applicationId ?? DEMO_APP_ID,
    ...(guildId === null ? {} : { guild_id: guildId }),
    channel_id: options.channelId ?? GENERAL,
    ...(options.nonce === undefined ? {} : { nonce: options.nonce }),
    data: { id: command.id, name: command.name, type: command.type ?? 1, version: command.version, ...options.data },
  };
}
