/**
 * Commands as v10 returns them. Single-command responses carry the full localization
 * dictionaries; list responses carry `name_localized`/`description_localized` for the
 * requester's locale unless `with_localizations` asks for the dictionaries.
 */
import type {
  APIApplicationCommand,
  APIApplicationCommandOptionChoice,
  ApplicationCommandOptionType,
  ApplicationIntegrationType,
  ChannelType,
  InteractionContextType,
} from 'discord-api-types/v10';
import { pickLocalized, type Locale, type LocalizationMap } from '../../../core/locales.js';
import { FrozenViewMemo } from '../../../core/byte-lru.js';
import type { WirePayload } from '../../../core/wire-payload.js';
import type { ChoiceDefinition, OptionDefinition, StoredCommand } from '../../../core/commands/model.js';

export type LocalizationView = { kind: 'dictionaries' } | { kind: 'localized'; locale: Locale | null };

export const DICTIONARIES: LocalizationView = { kind: 'dictionaries' };

/** The view of a list read that names no locale (a bot's, without locale headers): the one stored with each write. */
export const NO_LOCALE: LocalizationView = { kind: 'localized', locale: null };

/** A localization map or the one string a view picks of it, as command objects carry them. */
interface NameLocalization {
  name_localizations?: LocalizationMap | null;
  name_localized?: string;
}
interface DescriptionLocalization {
  description_localizations?: LocalizationMap | null;
  description_localized?: string;
}

/** A choice as v10 returns it: discord-api-types' choice lacks `name_localized`, which v10 sends in lists. */
export interface WireChoice extends Omit<APIApplicationCommandOptionChoice, 'name_localizations'>, NameLocalization {}

/**
 * An option as v10 returns it. discord-api-types has one interface per option type; slashd writes
 * every type from one normalized definition (whose rules, in `core/validation`, say which fields a
 * type has), so the fields of a type are optional here. Arrays are the stored definition's own,
 * frozen and shared between requests, hence read-only.
 */
export interface WireCommandOption extends NameLocalization, DescriptionLocalization {
  type: ApplicationCommandOptionType;
  name: string;
  description: string;
  required?: boolean;
  choices?: WireChoice[];
  options?: WireCommandOption[];
  channel_types?: readonly ChannelType[];
  min_value?: number;
  max_value?: number;
  min_length?: number;
  max_length?: number;
  autocomplete?: boolean;
}

/**
 * A command as v10 returns it: discord-api-types' `APIApplicationCommand` with slashd's options
 * (above), and `contexts` and `integration_types` read-only (the stored definition's arrays).
 */
export interface WireCommand extends Omit<APIApplicationCommand, 'options' | 'contexts' | 'integration_types'> {
  options?: WireCommandOption[];
  contexts?: readonly InteractionContextType[] | null;
  /**
   * Never null on a global command (core/validation/installs.ts defaults it from the app), the one
   * kind that carries it; null stays in the type because the stored definition's allows it.
   */
  integration_types?: readonly ApplicationIntegrationType[] | null;
}

function nameLocalization(map: LocalizationMap | null, view: LocalizationView): NameLocalization {
  if (view.kind === 'dictionaries') return { name_localizations: map };
  const value = pickLocalized(map, view.locale);
  return value === undefined ? {} : { name_localized: value };
}

function descriptionLocalization(map: LocalizationMap | null, view: LocalizationView): DescriptionLocalization {
  if (view.kind === 'dictionaries') return { description_localizations: map };
  const value = pickLocalized(map, view.locale);
  return value === undefined ? {} : { description_localized: value };
}

function wireChoice(choice: ChoiceDefinition, view: LocalizationView): WireChoice {
  return {
    name: choice.name,
    ...nameLocalization(choice.name_localizations, view),
    value: choice.value,
  } satisfies WireChoice;
}

function wireOption(option: OptionDefinition, view: LocalizationView): WireCommandOption {
  const out: WireCommandOption = {
    type: option.type,
    name: option.name,
    ...nameLocalization(option.name_localizations, view),
    description: option.description,
    ...descriptionLocalization(option.description_localizations, view),
  } satisfies WireCommandOption;
  if (option.required !== undefined) out.required = option.required;
  if (option.choices !== undefined) out.choices = option.choices.map((c) => wireChoice(c, view));
  if (option.options !== undefined) out.options = option.options.map((o) => wireOption(o, view));
  if (option.channel_types !== undefined) out.channel_types = option.channel_types;
  if (option.min_value !== undefined) out.min_value = option.min_value;
  if (option.max_value !== undefined) out.max_value = option.max_value;
  if (option.min_length !== undefined) out.min_length = option.min_length;
  if (option.max_length !== undefined) out.max_length = option.max_length;
  if (option.autocomplete !== undefined) out.autocomplete = option.autocomplete;
  return out;
}

export function toWireCommand(command: StoredCommand, view: LocalizationView = DICTIONARIES): WirePayload<WireCommand> {
  const d = command.definition;
  const out: WirePayload<WireCommand> = {
    id: command.id,
    application_id: command.application_id,
    version: command.version,
    default_member_permissions: d.default_member_permissions,
    type: d.type,
    name: d.name,
    ...nameLocalization(d.name_localizations, view),
    description: d.description,
    ...descriptionLocalization(d.description_localizations, view),
  } satisfies WireCommand;
  if (command.guild_id !== null) out.guild_id = command.guild_id;
  if (d.options.length > 0) out.options = d.options.map((o) => wireOption(o, view));
  if (command.guild_id === null) {
    out.dm_permission = d.dm_permission;
    out.contexts = d.contexts;
    out.integration_types = d.integration_types;
  }
  out.default_permission = d.default_permission;
  out.nsfw = d.nsfw;
  if (d.handler !== null) out.handler = d.handler;
  return out;
}

/** One cache key per view: '*' for the dictionaries, else the locale ('' for none). */
export function localizationViewKey(view: LocalizationView): string {
  return view.kind === 'dictionaries' ? '*' : (view.locale ?? '');
}

/**
 * The wire format of a stored list answer (SQLite's `command_list_answers`): a row of another
 * format is rendered anew. Moves with any change to what `toWireCommand` writes; the digest test in
 * test/store-caches.test.ts fails until it does.
 */
export const LIST_ANSWER_FORMAT = 1;

/**
 * A list answer's bytes in `view`, in a buffer of their own: a small `Buffer.from` shares an 8 KiB
 * pool slab, which a kept answer would keep alive beyond the size the cache counts for it.
 */
export function listAnswerBytes(commands: readonly StoredCommand[], view: LocalizationView): Buffer {
  const text = JSON.stringify(commands.map((c) => toWireCommand(c, view)));
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

/** The most bytes of command JSON kept across all commands and views (each view of a command is one entry). */
export const WIRE_JSON_CACHE_BYTES = 16 * 1024 * 1024;

/** Per stored (frozen) command and view: its JSON text, the least recently used dropped past the cap. */
const wireJsonByCommand = new FrozenViewMemo<StoredCommand, string>(WIRE_JSON_CACHE_BYTES, (json) => json.length * 2);

/**
 * `JSON.stringify(toWireCommand(command, view))`, encoded once per command and view when the
 * command is the store's frozen copy: the command index sends up to hundreds of commands per
 * request, and encoding them is most of its cost. A command that is not frozen is encoded anew.
 */
export function toWireCommandJson(command: StoredCommand, view: LocalizationView = DICTIONARIES): string {
  return wireJsonByCommand.get(command, localizationViewKey(view), () => JSON.stringify(toWireCommand(command, view)));
}
