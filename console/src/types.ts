/** Wire objects as the v10 API sends them: read by field, checked where the console relies on them. */
export type Json = any;

export interface OptionDef {
  type: number;
  name: string;
  name_localized?: string;
  description: string;
  description_localized?: string;
  required?: boolean;
  autocomplete?: boolean;
  choices?: { name: string; name_localized?: string; value: string | number }[];
  options?: OptionDef[];
  channel_types?: number[];
  min_value?: number;
  max_value?: number;
  min_length?: number;
  max_length?: number;
}

export interface CommandDef {
  id: string;
  application_id: string;
  version: string;
  type: number;
  name: string;
  name_localized?: string;
  description: string;
  description_localized?: string;
  options?: OptionDef[];
}

export interface CommandIndex {
  applications: { id: string; name: string }[];
  application_commands: CommandDef[];
}

/** Who is signed in: `GET /users/@me` and the token it was read with. */
export interface SignedInUser {
  id: string;
  username: string;
  global_name?: string | null;
  locale?: string;
}

/** Where the user is: the guild and channel picked; `guildId` null for a DM or a group DM. */
export interface Place {
  guildId: string | null;
  channelId: string;
}

/** Application command option types (v10). */
export const OptionType = {
  Subcommand: 1,
  SubcommandGroup: 2,
  String: 3,
  Integer: 4,
  Boolean: 5,
  User: 6,
  Channel: 7,
  Role: 8,
  Mentionable: 9,
  Number: 10,
  Attachment: 11,
} as const;

/** Application command types (v10). */
export const CommandType = { ChatInput: 1, User: 2, Message: 3, PrimaryEntryPoint: 4 } as const;

/** Message flags the console shows. */
export const MessageFlag = { Ephemeral: 1 << 6, Loading: 1 << 7, ComponentsV2: 1 << 15 } as const;
