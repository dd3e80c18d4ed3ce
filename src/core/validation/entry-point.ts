/**
 * PRIMARY_ENTRY_POINT commands (v10 API, Entry point handler types; docs/v10-behaviour.md#constants): only for apps
 * with an Activity (the EMBEDDED flag), only global, and they alone carry a `handler`.
 */
import { CommandType, hasActivities, type CommandTypeValue } from '../commands/model.js';
import type { IssuePath } from '../io/issue.js';
import {
  APPLICATION_COMMAND_ENTRY_POINT_GUILD,
  APPLICATION_COMMAND_ENTRY_POINT_NOT_EMBEDDED,
  APPLICATION_COMMAND_FIELD_NOT_ALLOWED,
} from '../io/codes.js';
import type { CommandRules } from './context.js';
import { isAbsent, readInteger } from '../io/read.js';
import { report, reportNotOneOf, reportRequired, type Issues } from '../io/report.js';
import { ENTRY_POINT_HANDLERS } from './values.js';

/** Reported at the command's `type`, since it is the type that is not allowed here. */
export function checkEntryPointAllowed(
  type: CommandTypeValue,
  typePath: IssuePath,
  rules: CommandRules,
  issues: Issues,
): void {
  if (type !== CommandType.PrimaryEntryPoint) return;
  if (!hasActivities(rules.app)) {
    report(
      issues,
      typePath,
      APPLICATION_COMMAND_ENTRY_POINT_NOT_EMBEDDED,
      'Only applications with Activities (the EMBEDDED flag) can have an Entry Point command',
    );
  }
  if (rules.scope === 'guild') {
    report(issues, typePath, APPLICATION_COMMAND_ENTRY_POINT_GUILD, 'Entry Point commands cannot be guild commands');
  }
}

/** Required on PRIMARY_ENTRY_POINT commands, forbidden (unless null) on the others. */
export function readHandler(value: unknown, path: IssuePath, type: CommandTypeValue, issues: Issues): number | null {
  if (type !== CommandType.PrimaryEntryPoint) {
    if (!isAbsent(value)) {
      report(
        issues,
        path,
        APPLICATION_COMMAND_FIELD_NOT_ALLOWED,
        'This field is only allowed on PRIMARY_ENTRY_POINT commands.',
      );
    }
    return null;
  }
  if (isAbsent(value)) {
    reportRequired(issues, path);
    return null;
  }
  const handler = readInteger(value, path, issues);
  if (handler === undefined) return null;
  if (ENTRY_POINT_HANDLERS.includes(handler)) return handler;
  reportNotOneOf(issues, path, ENTRY_POINT_HANDLERS);
  return null;
}
