/**
 * The command a user typed, found in the channel's command index (what the client's picker shows
 * this user there), and turned into the `data` of `POST /interactions`: the subcommand path walked
 * down, each option value typed by the definition, users, channels and roles named by name or id.
 * Commands, subcommands, options and choices are found by the name the user sees (the index's
 * `name_localized`, in their locale) or by their default name; the data names them by default name,
 * as v10 does.
 */
import { CommandType, OptionType } from '../../core/commands/model.js';
import type { Guild, World } from '../../core/world/types.js';
import { UsageError } from '../usage.js';
import type { TypedCommand } from './command-line.js';
import { findChannelId, findRole, findRoleId, findUserId } from './resolve-world.js';

/** A command or option as the command index has it (the v10 wire shape, the fields read here). */
export interface IndexOption {
  type: number;
  name: string;
  /** The name in the requester's locale, when the command has one for it. */
  name_localized?: string;
  options?: IndexOption[];
  choices?: { name: string; name_localized?: string; value: string | number }[];
}

export interface IndexCommand {
  id: string;
  application_id: string;
  version: string;
  type?: number;
  name: string;
  name_localized?: string;
  options?: IndexOption[];
}

/** Anything with a default name and perhaps a localized one. */
interface Named {
  name: string;
  name_localized?: string;
}

export interface WireOption {
  type: number;
  name: string;
  value?: string | number | boolean;
  options?: WireOption[];
}

export interface InvocationData {
  id: string;
  name: string;
  type: number;
  version: string;
  options?: WireOption[];
  target_id?: string;
}

/** Where values that name things are looked up. */
export interface LookupScope {
  world: World;
  guild: Guild;
}

const BRANCH_TYPES: readonly number[] = [OptionType.Subcommand, OptionType.SubcommandGroup];
/** Words accepted for a BOOLEAN option. */
const TRUE_WORDS = ['true', 'yes', 'on', '1'];
const FALSE_WORDS = ['false', 'no', 'off', '0'];

/** The name the user sees. */
function shownName(item: Named): string {
  return item.name_localized ?? item.name;
}

function names(list: readonly Named[]): string {
  return list.map(shownName).join(', ') || '(none)';
}

/**
 * The items `typed` names, in the first of these that has any: the shown name exactly, the
 * default name exactly, then either without regard to case.
 */
export function byTypedName<T extends Named>(list: readonly T[], typed: string): T[] {
  const lower = typed.toLowerCase();
  const tiers: ((item: T) => boolean)[] = [
    (item) => shownName(item) === typed,
    (item) => item.name === typed,
    (item) => shownName(item).toLowerCase() === lower || item.name.toLowerCase() === lower,
  ];
  for (const matches of tiers) {
    const found = list.filter(matches);
    if (found.length > 0) return found;
  }
  return [];
}

/** The command of this name and kind; a name two apps use is ambiguous. */
export function findCommand(commands: readonly IndexCommand[], name: string, contextMenu: boolean): IndexCommand {
  const wanted = (command: IndexCommand) => {
    const type = command.type ?? CommandType.ChatInput;
    return contextMenu ? type === CommandType.User || type === CommandType.Message : type === CommandType.ChatInput;
  };
  const candidates = commands.filter(wanted);
  const found = byTypedName(candidates, name);
  if (found.length === 1) return found[0]!;
  if (found.length > 1) throw new UsageError(`several apps have a command '${name}' here`, false);
  const kind = contextMenu ? 'context-menu command (with --target)' : 'slash command';
  throw new UsageError(
    `no ${kind} '${name}' that this user may use in this channel; they are: ${names(candidates)}`,
    false,
  );
}

function typedNumber(option: IndexOption, raw: string): number {
  const value = Number(raw);
  const integer = option.type === OptionType.Integer;
  if (raw.trim() === '' || !Number.isFinite(value) || (integer && !Number.isSafeInteger(value))) {
    throw new UsageError(`option ${option.name}: '${raw}' is not ${integer ? 'an integer' : 'a number'}`, false);
  }
  return value;
}

function typedBoolean(option: IndexOption, raw: string): boolean {
  const word = raw.toLowerCase();
  if (TRUE_WORDS.includes(word)) return true;
  if (FALSE_WORDS.includes(word)) return false;
  throw new UsageError(`option ${option.name}: '${raw}' is not true or false`, false);
}

/** A user or a role: a user's name wins, as in the client's mention picker. */
function mentionableId(scope: LookupScope, raw: string): string {
  const role = findRole(scope.guild, raw);
  try {
    return findUserId(scope.world, raw);
  } catch (error) {
    if (role) return role.id;
    throw error;
  }
}

/** A choice may be typed by its value or its name (the shown or the default one). */
function choiceValue(option: IndexOption, raw: string): string | number | undefined {
  const choices = option.choices ?? [];
  const choice = choices.find((c) => String(c.value) === raw) ?? byTypedName(choices, raw)[0];
  return choice?.value;
}

export function typedValue(option: IndexOption, raw: string, scope: LookupScope): string | number | boolean {
  const chosen = choiceValue(option, raw);
  if (chosen !== undefined) return chosen;
  switch (option.type) {
    case OptionType.Integer:
    case OptionType.Number:
      return typedNumber(option, raw);
    case OptionType.Boolean:
      return typedBoolean(option, raw);
    case OptionType.User:
      return findUserId(scope.world, raw);
    case OptionType.Channel:
      return findChannelId(scope.guild, raw);
    case OptionType.Role:
      return findRoleId(scope.guild, raw);
    case OptionType.Mentionable:
      return mentionableId(scope, raw);
    case OptionType.Attachment:
      // `--attach OPTION=FILE` gives the option the index of its file (`files[n]` of the upload).
      if (!/^\d+$/.test(raw)) {
        throw new UsageError(`option ${option.name}: attach a file with --attach ${option.name}=FILE`, false);
      }
      return Number(raw);
    default:
      return raw;
  }
}

function leafOptions(definitions: readonly IndexOption[], typed: TypedCommand, scope: LookupScope): WireOption[] {
  return typed.options.map(({ name, value }) => {
    const option = byTypedName(definitions, name)[0];
    if (!option || BRANCH_TYPES.includes(option.type)) {
      throw new UsageError(
        `no option '${name}'; the options are: ${names(definitions.filter((d) => !BRANCH_TYPES.includes(d.type)))}`,
        false,
      );
    }
    return { type: option.type, name: option.name, value: typedValue(option, value, scope) };
  });
}

/** Walks the typed path through subcommand groups and subcommands, then types the options. */
function optionTree(
  definitions: readonly IndexOption[],
  path: string[],
  typed: TypedCommand,
  scope: LookupScope,
): WireOption[] {
  const branches = definitions.filter((d) => BRANCH_TYPES.includes(d.type));
  if (branches.length === 0) {
    if (path.length > 0) throw new UsageError(`unexpected '${path.join(' ')}': this command has no subcommands`, false);
    return leafOptions(definitions, typed, scope);
  }
  const [next, ...rest] = path;
  const branch = next === undefined ? undefined : byTypedName(branches, next)[0];
  if (!branch) {
    const said = next === undefined ? 'a subcommand is needed' : `no subcommand '${next}'`;
    throw new UsageError(`${said}; the choices are: ${names(branches)}`, false);
  }
  return [{ type: branch.type, name: branch.name, options: optionTree(branch.options ?? [], rest, typed, scope) }];
}

/** The `data` of the invocation: a slash command with its options, or a context-menu command on its target. */
export function invocationData(
  command: IndexCommand,
  typed: TypedCommand,
  scope: LookupScope,
  target?: string,
): InvocationData {
  const type = command.type ?? CommandType.ChatInput;
  const data: InvocationData = { id: command.id, name: command.name, type, version: command.version };
  if (type === CommandType.User) data.target_id = findUserId(scope.world, requireTarget(target));
  else if (type === CommandType.Message) data.target_id = requireTarget(target);
  else {
    const options = optionTree(command.options ?? [], typed.path.slice(1), typed, scope);
    if (options.length > 0) data.options = options;
  }
  return data;
}

function requireTarget(target: string | undefined): string {
  if (target === undefined)
    throw new UsageError('a context-menu command needs --target (a user, or a message id)', false);
  return target;
}
