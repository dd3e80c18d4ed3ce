/**
 * What invoking a command needs beyond being allowed to use it. The one such rule of the v10 API: a USER
 * command needs permission to send messages in the channel ("Errors", 2), which in a thread is
 * SEND_MESSAGES_IN_THREADS. The command stays visible without it; the invocation fails.
 */
import { CommandType } from '../commands/model.js';
import { canSendMessages } from './channel-permissions.js';
import { evaluateCommandAccess, type AccessDecision, type CommandAccessInput } from './engine.js';

/** Why an invocation is refused although the command is usable. */
export const InvocationReason = {
  /** A USER command invoked without permission to send messages in the channel. */
  MissingSendMessages: 'missing_send_messages',
  /** A member held by a timeout uses no command until it ends (v10). */
  TimedOut: 'timed_out',
} as const;
export type InvocationReasonCode = (typeof InvocationReason)[keyof typeof InvocationReason];

export interface InvocationDecision {
  readonly allowed: boolean;
  readonly reason: AccessDecision['reason'] | InvocationReasonCode;
}

function userCommandNeedsSendMessages({
  command,
  guild,
  member,
  channel,
}: CommandAccessInput): InvocationDecision | undefined {
  if (command.definition.type !== CommandType.User) return undefined;
  return canSendMessages(guild, member, channel)
    ? undefined
    : { allowed: false, reason: InvocationReason.MissingSendMessages };
}

/** May the member invoke the command now? The engine's decision, then the invocation-only rules. */
export function evaluateCommandInvocation(input: CommandAccessInput): InvocationDecision {
  const access = evaluateCommandAccess(input);
  if (!access.allowed) return access;
  return userCommandNeedsSendMessages(input) ?? access;
}
