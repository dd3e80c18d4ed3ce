/**
 * The command index as the picker lists it, and what the option form sends: pure functions over
 * the index's wire objects (no DOM, no fetch), so the rules are read in one place.
 */
import { CommandType, OptionType, type CommandDef, type CommandIndex, type OptionDef } from './types';

/** One line of the picker: a command, or one subcommand of it (`/config set`). */
export interface PickerEntry {
  key: string;
  command: CommandDef;
  appName: string;
  /** Canonical names of the subcommand group and subcommand, as the app receives them. */
  path: string[];
  /** What the user reads: the localized names. */
  label: string;
  description: string;
  /** The options the user fills in (the subcommand's, or the command's). */
  options: OptionDef[];
}

export interface PickerGroup {
  appId: string;
  appName: string;
  entries: PickerEntry[];
}

const isSub = (o: OptionDef) => o.type === OptionType.Subcommand || o.type === OptionType.SubcommandGroup;

export function localName(o: { name: string; name_localized?: string }): string {
  return o.name_localized ?? o.name;
}

export function localDescription(o: { description: string; description_localized?: string }): string {
  return o.description_localized ?? o.description;
}

/** Every slash command of the index as picker lines, subcommands flattened, grouped by app in index order. */
export function pickerGroups(index: CommandIndex): PickerGroup[] {
  const names = new Map(index.applications.map((app) => [app.id, app.name]));
  const groups = new Map<string, PickerGroup>();
  for (const command of index.application_commands) {
    if (command.type !== CommandType.ChatInput) continue;
    const appName = names.get(command.application_id) ?? command.application_id;
    let group = groups.get(command.application_id);
    if (!group) {
      group = { appId: command.application_id, appName, entries: [] };
      groups.set(command.application_id, group);
    }
    const top = command.options ?? [];
    const base = { command, appName };
    if (!top.some(isSub)) {
      group.entries.push({
        ...base,
        key: command.id,
        path: [],
        label: `/${localName(command)}`,
        description: localDescription(command),
        options: top,
      });
      continue;
    }
    for (const sub of top) {
      if (sub.type === OptionType.Subcommand) {
        group.entries.push({
          ...base,
          key: `${command.id} ${sub.name}`,
          path: [sub.name],
          label: `/${localName(command)} ${localName(sub)}`,
          description: localDescription(sub),
          options: sub.options ?? [],
        });
      } else if (sub.type === OptionType.SubcommandGroup) {
        for (const leaf of sub.options ?? []) {
          group.entries.push({
            ...base,
            key: `${command.id} ${sub.name} ${leaf.name}`,
            path: [sub.name, leaf.name],
            label: `/${localName(command)} ${localName(sub)} ${localName(leaf)}`,
            description: localDescription(leaf),
            options: leaf.options ?? [],
          });
        }
      }
    }
  }
  return [...groups.values()];
}

/** The lines whose label contains what was typed after `/` (case-insensitive), groups kept. */
export function filterGroups(groups: PickerGroup[], typed: string): PickerGroup[] {
  const query = typed.trim().toLowerCase();
  if (query === '') return groups;
  return groups
    .map((group) => ({
      ...group,
      entries: group.entries.filter((e) => e.label.slice(1).toLowerCase().includes(query)),
    }))
    .filter((group) => group.entries.length > 0);
}

/** Required options first (the client's order), each kind in the app's order. */
export function formOrder(options: OptionDef[]): OptionDef[] {
  return [...options.filter((o) => o.required === true), ...options.filter((o) => o.required !== true)];
}

/** The commands of a context menu: USER or MESSAGE commands of the index. */
export function contextCommands(index: CommandIndex | null, type: number): { command: CommandDef; appName: string }[] {
  if (!index) return [];
  const names = new Map(index.applications.map((app) => [app.id, app.name]));
  return index.application_commands
    .filter((c) => c.type === type)
    .map((command) => ({ command, appName: names.get(command.application_id) ?? command.application_id }));
}

export type FormValues = Record<string, string>;

/** What is wrong with one field as typed; null when it may be sent. */
export function optionError(option: OptionDef, raw: string | undefined): string | null {
  const value = (raw ?? '').trim();
  if (value === '') return option.required === true ? 'This option is required.' : null;
  switch (option.type) {
    case OptionType.String: {
      if (option.min_length !== undefined && value.length < option.min_length)
        return `At least ${option.min_length} characters.`;
      if (option.max_length !== undefined && value.length > option.max_length)
        return `At most ${option.max_length} characters.`;
      break;
    }
    case OptionType.Integer:
    case OptionType.Number: {
      const number = Number(value);
      if (!Number.isFinite(number)) return 'Enter a number.';
      if (option.type === OptionType.Integer && !Number.isInteger(number)) return 'Enter a whole number.';
      if (option.min_value !== undefined && number < option.min_value) return `At least ${option.min_value}.`;
      if (option.max_value !== undefined && number > option.max_value) return `At most ${option.max_value}.`;
      break;
    }
    case OptionType.Boolean:
      if (value !== 'true' && value !== 'false') return 'Choose true or false.';
      break;
    default:
      break;
  }
  if (option.choices && option.choices.length > 0 && !option.choices.some((c) => String(c.value) === value)) {
    return 'Choose one of the listed values.';
  }
  return null;
}

/** Every field's error, by option name; empty when the form may be sent. */
export function formErrors(options: OptionDef[], values: FormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const option of options) {
    const error = optionError(option, values[option.name]);
    if (error) errors[option.name] = error;
  }
  return errors;
}

function wireValue(option: OptionDef, raw: string): string | number | boolean {
  switch (option.type) {
    case OptionType.Integer:
    case OptionType.Number:
      return Number(raw);
    case OptionType.Boolean:
      return raw === 'true';
    default:
      return raw;
  }
}

/** The options as the app receives them: filled ones only, nested under the subcommand path. */
export function wireOptions(entry: PickerEntry, values: FormValues, focused?: string): unknown[] {
  const leaf: Record<string, unknown>[] = [];
  for (const option of entry.options) {
    const raw = (values[option.name] ?? '').trim();
    const isFocused = option.name === focused;
    if (raw === '' && !isFocused) continue;
    // An autocomplete request carries the other options only while they are valid (the server checks them).
    if (focused !== undefined && !isFocused && optionError(option, raw) !== null) continue;
    // The focused option of an autocomplete request is sent as typed (v10: always its text).
    leaf.push(
      isFocused
        ? { type: option.type, name: option.name, value: values[option.name] ?? '', focused: true }
        : { type: option.type, name: option.name, value: wireValue(option, raw) },
    );
  }
  if (entry.path.length === 0) return leaf;
  const [first, second] = entry.path;
  if (second === undefined) return [{ type: OptionType.Subcommand, name: first, options: leaf }];
  return [
    {
      type: OptionType.SubcommandGroup,
      name: first,
      options: [{ type: OptionType.Subcommand, name: second, options: leaf }],
    },
  ];
}

export function commandData(command: CommandDef, options: unknown[]): Record<string, unknown> {
  return { id: command.id, name: command.name, type: command.type, version: command.version, options };
}

/** The first `limit` lines of the groups (groups cut or dropped past it), and how many were left out. */
export function firstLines(groups: PickerGroup[], limit: number): { groups: PickerGroup[]; hidden: number } {
  const out: PickerGroup[] = [];
  let left = limit;
  let hidden = 0;
  for (const group of groups) {
    if (left <= 0) {
      hidden += group.entries.length;
      continue;
    }
    const entries = group.entries.slice(0, left);
    hidden += group.entries.length - entries.length;
    left -= entries.length;
    out.push({ ...group, entries });
  }
  return { groups: out, hidden };
}
