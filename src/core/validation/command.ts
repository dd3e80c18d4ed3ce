/**
 * One command body read into the normalized definition (model.ts): every field present, defaults
 * applied, and every rule of the command level checked. Endpoint differences come in as `rules`.
 */
import {
  CommandType,
  InteractionContext,
  type CommandDefinition,
  type CommandTypeValue,
  type OptionDefinition,
} from '../commands/model.js';
import type { IssuePath } from '../io/issue.js';
import { APPLICATION_COMMAND_FIELD_NOT_ALLOWED, APPLICATION_COMMAND_NSFW_DISCOVERABLE } from '../io/codes.js';
import type { CommandRules } from './context.js';
import { readCommandDescription } from './descriptions.js';
import { checkEntryPointAllowed, readHandler } from './entry-point.js';
import { readInstallFields, type InstallFields } from './installs.js';
import { fieldOf, isAbsent, readBoolean, readInteger, readRecord, type JsonRecord } from '../io/read.js';
import { readLocalizations } from './localizations.js';
import { checkFreeformName, nameRuleFor, readName } from './names.js';
import { readOptionList } from './options.js';
import { readDefaultMemberPermissions } from './permissions.js';
import { report, reportNotOneOf, type Issues } from '../io/report.js';
import { checkCommandSize } from './size.js';
import { COMMAND_TYPES, commandTypeName, isCommandType } from './values.js';

/** Omitted or null means CHAT_INPUT. */
function readCommandType(value: unknown, path: IssuePath, issues: Issues): CommandTypeValue | undefined {
  if (isAbsent(value)) return CommandType.ChatInput;
  const type = readInteger(value, path, issues);
  if (type === undefined) return undefined;
  if (isCommandType(type)) return type;
  reportNotOneOf(issues, path, COMMAND_TYPES);
  return undefined;
}

function readFlag(record: JsonRecord, field: string, path: IssuePath, fallback: boolean, issues: Issues): boolean {
  const value = fieldOf(record, field);
  if (isAbsent(value)) return fallback;
  return readBoolean(value, [...path, field], issues) ?? fallback;
}

/** Options only on CHAT_INPUT; elsewhere `[]` and null count as none (docs/v10-behaviour.md#compatibility-decisions). */
function readCommandOptions(
  value: unknown,
  path: IssuePath,
  type: CommandTypeValue,
  issues: Issues,
): OptionDefinition[] {
  if (type === CommandType.ChatInput) return readOptionList(value, path, 'command', 1, issues);
  if (!isAbsent(value) && !(Array.isArray(value) && value.length === 0)) {
    report(
      issues,
      path,
      APPLICATION_COMMAND_FIELD_NOT_ALLOWED,
      `This field is not allowed on ${commandTypeName(type)} commands.`,
    );
  }
  return [];
}

function readNsfw(record: JsonRecord, path: IssuePath, rules: CommandRules, issues: Issues): boolean {
  const nsfw = readFlag(record, 'nsfw', path, false, issues);
  if (nsfw && rules.app.discoverable) {
    report(
      issues,
      [...path, 'nsfw'],
      APPLICATION_COMMAND_NSFW_DISCOVERABLE,
      'Applications with discovery enabled cannot have age-restricted commands',
    );
  }
  return nsfw;
}

/** The fields whose rules do not depend on the command type. */
interface SharedFields extends InstallFields {
  default_member_permissions: string | null;
  dm_permission: boolean;
  default_permission: boolean;
  nsfw: boolean;
}

function readSharedFields(record: JsonRecord, path: IssuePath, rules: CommandRules, issues: Issues): SharedFields {
  const dmPermission = readFlag(record, 'dm_permission', path, true, issues);
  const defaultMemberPermissions = readDefaultMemberPermissions(
    fieldOf(record, 'default_member_permissions'),
    [...path, 'default_member_permissions'],
    issues,
  );
  const defaultPermission = readFlag(record, 'default_permission', path, true, issues);
  const nsfw = readNsfw(record, path, rules, issues);
  const installs = readInstallFields(record, path, rules, issues);
  // A command kept out of DMs by the deprecated flag keeps BOT_DM out of its defaulted contexts.
  const contexts =
    !dmPermission && installs.contexts !== null && isAbsent(fieldOf(record, 'contexts'))
      ? installs.contexts.filter((context) => context !== InteractionContext.BotDm)
      : installs.contexts;
  return {
    default_member_permissions: defaultMemberPermissions,
    // Guild commands never appear in DMs: the value is checked but not kept (docs/v10-behaviour.md#compatibility-decisions).
    dm_permission: rules.scope === 'global' ? dmPermission : true,
    default_permission: defaultPermission,
    nsfw,
    integration_types: installs.integration_types,
    contexts,
  };
}

/**
 * The definition, or undefined when the body is not an object or its type is unknown. Issues are
 * appended; the definition is only meaningful when none were.
 */
export function readCommand(
  value: unknown,
  path: IssuePath,
  rules: CommandRules,
  issues: Issues,
): CommandDefinition | undefined {
  const record = readRecord(value, path, issues);
  if (!record) return undefined;
  const typePath = [...path, 'type'];
  const type = readCommandType(fieldOf(record, 'type'), typePath, issues);
  const nameRule = type === undefined ? checkFreeformName : nameRuleFor(type);
  const name = readName(fieldOf(record, 'name'), [...path, 'name'], nameRule, issues) ?? '';
  const nameLocalizations = readLocalizations(
    fieldOf(record, 'name_localizations'),
    [...path, 'name_localizations'],
    name,
    nameRule,
    issues,
  );
  const shared = readSharedFields(record, path, rules, issues);
  if (type === undefined) return undefined;

  checkEntryPointAllowed(type, typePath, rules, issues);
  const definition: CommandDefinition = {
    type,
    name,
    name_localizations: nameLocalizations,
    ...readCommandDescription(
      fieldOf(record, 'description'),
      fieldOf(record, 'description_localizations'),
      path,
      type,
      issues,
    ),
    options: readCommandOptions(fieldOf(record, 'options'), [...path, 'options'], type, issues),
    ...shared,
    handler: readHandler(fieldOf(record, 'handler'), [...path, 'handler'], type, issues),
  };
  if (type === CommandType.ChatInput) checkCommandSize(definition, path, issues);
  return definition;
}
