/**
 * `data.target_id`: USER commands target a user of the world, MESSAGE commands a message of the
 * channel they are invoked in; the other command types take no target.
 */
import { CommandType, type CommandTypeValue } from '../../../core/commands/model.js';
import type { IssuePath } from '../../../core/io/issue.js';
import { isSnowflake } from '../../../core/snowflake.js';
import { isAbsent } from '../../../core/io/read.js';
import { report, reportNotSnowflake, reportRequired, type Issues } from '../../../core/io/report.js';
import { INTERACTION_TARGET_NOT_ALLOWED, INTERACTION_UNKNOWN_MESSAGE } from '../../../core/io/codes.js';
import { resolveUser, type ResolutionScope } from './option-resolution.js';
import { addReference } from '../../messages/rules/references.js';

const TARGET_PATH: IssuePath = ['data', 'target_id'];

function takesTarget(type: CommandTypeValue): boolean {
  return type === CommandType.User || type === CommandType.Message;
}

function resolveMessage(id: string, scope: ResolutionScope, issues: Issues): void {
  const channelId = scope.target.channel.id;
  const found = scope.target.messages.some((message) => message.id === id && message.channel_id === channelId);
  if (found) addReference(scope.references, 'messages', id);
  else report(issues, TARGET_PATH, INTERACTION_UNKNOWN_MESSAGE, `Unknown message "${id}" in this channel.`);
}

/** The target id, resolved and recorded; null when the command takes none or it is invalid (reported). */
export function readTarget(
  raw: unknown,
  type: CommandTypeValue,
  scope: ResolutionScope,
  issues: Issues,
): string | null {
  if (!takesTarget(type)) {
    if (!isAbsent(raw)) report(issues, TARGET_PATH, INTERACTION_TARGET_NOT_ALLOWED, 'This command takes no target.');
    return null;
  }
  if (isAbsent(raw)) {
    reportRequired(issues, TARGET_PATH);
    return null;
  }
  if (!isSnowflake(raw)) {
    reportNotSnowflake(issues, TARGET_PATH, raw);
    return null;
  }
  if (type === CommandType.User) resolveUser(raw, TARGET_PATH, scope, issues);
  else resolveMessage(raw, scope, issues);
  return raw;
}
