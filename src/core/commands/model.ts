/**
 * The command model: what slashd stores for a command after validation (a normalized definition)
 * and the record around it. Wire shapes live in `wire.ts`.
 */
import type { LocalizationMap } from '../locales.js';
import { nullRecord } from '../records.js';

export const CommandType = { ChatInput: 1, User: 2, Message: 3, PrimaryEntryPoint: 4 } as const;
export type CommandTypeValue = (typeof CommandType)[keyof typeof CommandType];

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
export type OptionTypeValue = (typeof OptionType)[keyof typeof OptionType];

export const EntryPointHandler = { AppHandler: 1, DiscordLaunchActivity: 2 } as const;
export const IntegrationType = { GuildInstall: 0, UserInstall: 1 } as const;
export const InteractionContext = { Guild: 0, BotDm: 1, PrivateChannel: 2 } as const;

/** Application flag: the app has an Activity (docs/v10-behaviour.md#constants). */
export const APPLICATION_FLAG_EMBEDDED = 1 << 17;

/** True when the app has Activities (the EMBEDDED flag): only then may it have an Entry Point command. */
export function hasActivities(app: { readonly flags: number }): boolean {
  return (app.flags & APPLICATION_FLAG_EMBEDDED) !== 0;
}

export interface ChoiceDefinition {
  readonly name: string;
  readonly name_localizations: LocalizationMap | null;
  readonly value: string | number;
}

/** A normalized option: fields that do not apply to its type are absent. */
export interface OptionDefinition {
  readonly type: OptionTypeValue;
  readonly name: string;
  readonly name_localizations: LocalizationMap | null;
  readonly description: string;
  readonly description_localizations: LocalizationMap | null;
  readonly required?: boolean;
  readonly choices?: readonly ChoiceDefinition[];
  readonly options?: readonly OptionDefinition[];
  readonly channel_types?: readonly number[];
  readonly min_value?: number;
  readonly max_value?: number;
  readonly min_length?: number;
  readonly max_length?: number;
  readonly autocomplete?: boolean;
}

/** A normalized command definition: every field present, defaults applied. */
export interface CommandDefinition {
  readonly type: CommandTypeValue;
  readonly name: string;
  readonly name_localizations: LocalizationMap | null;
  /** "" for USER, MESSAGE and (unless given) PRIMARY_ENTRY_POINT commands. */
  readonly description: string;
  readonly description_localizations: LocalizationMap | null;
  /** [] when the command has none. */
  readonly options: readonly OptionDefinition[];
  /** A decimal bit-set string, or null. */
  readonly default_member_permissions: string | null;
  readonly dm_permission: boolean;
  readonly default_permission: boolean;
  readonly nsfw: boolean;
  /** Global commands only; null on guild commands. */
  readonly integration_types: readonly number[] | null;
  /** Global commands only; null on guild commands. */
  readonly contexts: readonly number[] | null;
  /** PRIMARY_ENTRY_POINT only; null otherwise. */
  readonly handler: number | null;
}

export interface StoredCommand {
  readonly id: string;
  readonly application_id: string;
  /** null for a global command. */
  readonly guild_id: string | null;
  /** Snowflake string; changes when, and only when, the definition changes. */
  readonly version: string;
  readonly definition: CommandDefinition;
}

/** Where a command lives: global (guildId null) or one guild, always of one application. */
export interface CommandScope {
  applicationId: string;
  guildId: string | null;
}

/** A stable serialization, so that two equal definitions compare equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out = nullRecord();
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

export function sameDefinition(a: CommandDefinition, b: CommandDefinition): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
