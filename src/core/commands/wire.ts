/**
 * Commands as v10 returns them. Single-command responses carry the full localization
 * dictionaries; list responses carry `name_localized`/`description_localized` for the
 * requester's locale unless `with_localizations` asks for the dictionaries.
 */
import { pickLocalized, type Locale, type LocalizationMap } from '../locales.js';
import { FrozenViewMemo } from '../byte-lru.js';
import type { ChoiceDefinition, OptionDefinition, StoredCommand } from './model.js';

export type LocalizationView = { kind: 'dictionaries' } | { kind: 'localized'; locale: Locale | null };

export const DICTIONARIES: LocalizationView = { kind: 'dictionaries' };

type WireObject = Record<string, unknown>;

function putLocalized(
  out: WireObject,
  field: 'name' | 'description',
  map: LocalizationMap | null,
  view: LocalizationView,
): void {
  if (view.kind === 'dictionaries') {
    out[`${field}_localizations`] = map;
    return;
  }
  const value = pickLocalized(map, view.locale);
  if (value !== undefined) out[`${field}_localized`] = value;
}

function wireChoice(choice: ChoiceDefinition, view: LocalizationView): WireObject {
  const out: WireObject = { name: choice.name };
  putLocalized(out, 'name', choice.name_localizations, view);
  out.value = choice.value;
  return out;
}

function wireOption(option: OptionDefinition, view: LocalizationView): WireObject {
  const out: WireObject = { type: option.type, name: option.name };
  putLocalized(out, 'name', option.name_localizations, view);
  out.description = option.description;
  putLocalized(out, 'description', option.description_localizations, view);
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

export function toWireCommand(command: StoredCommand, view: LocalizationView = DICTIONARIES): WireObject {
  const d = command.definition;
  const out: WireObject = {
    id: command.id,
    application_id: command.application_id,
    version: command.version,
    default_member_permissions: d.default_member_permissions,
    type: d.type,
    name: d.name,
  };
  putLocalized(out, 'name', d.name_localizations, view);
  out.description = d.description;
  putLocalized(out, 'description', d.description_localizations, view);
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
