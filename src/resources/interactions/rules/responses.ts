/**
 * Checking an app's answers: the body of an interaction callback (its type must answer this kind of
 * interaction, its data must fit the type) and, through `message-data.ts`, webhook messages.
 *
 * Which callback answers what (docs/v10-behaviour.md#interactions): a command (interaction type 2) takes 4, 5, 9 and,
 * for apps with Activities, 12; an autocomplete request (type 4) takes 8 only. PONG (1) answers
 * PINGs, 6 and 7 answer components, and 10 (PREMIUM_REQUIRED) is deprecated: none of them answers
 * an invocation.
 */
import { InteractionResponseType } from 'discord-api-types/v10';
import { enumValues } from '../../../core/enum-values.js';
import type { OptionDefinition } from '../../../core/commands/model.js';
import { fail, ok, type Result } from '../../../core/io/result.js';
import type { IssuePath } from '../../../core/io/issue.js';
import { fieldOf, isAbsent, readInteger, readRecord, type JsonRecord } from '../../../core/io/read.js';
import { report, reportNotOneOf, reportRequired, type Issues } from '../../../core/io/report.js';
import { readAutocompleteResult } from './autocomplete-result.js';
import { INTERACTION_CALLBACK_ACTIVITIES_REQUIRED, INTERACTION_CALLBACK_TYPE_INVALID } from '../../../core/io/codes.js';
import type { EditedMessageState } from '../../messages/rules/components-v2.js';
import { readMessageData, reportEmptyMessage } from '../../messages/rules/message-data.js';
import { readModal } from './modal.js';

export { checkMessageData, isEmptyMessageFailure, type MessageDataOptions } from '../../messages/rules/message-data.js';

/** Every v10 callback type. */
const CALLBACK_TYPES: readonly number[] = enumValues(InteractionResponseType);

/**
 * The callback types that may answer each interaction type: a click (3) also takes 6 and 7, which
 * update the message holding the component; a modal submission (5) takes 6 and 7 only when the
 * modal was opened from a component (see `checkAnswers`), and never 9.
 */
const ANSWERS: Readonly<Record<2 | 3 | 4 | 5, readonly number[]>> = {
  2: [
    InteractionResponseType.ChannelMessageWithSource,
    InteractionResponseType.DeferredChannelMessageWithSource,
    InteractionResponseType.Modal,
    InteractionResponseType.LaunchActivity,
  ],
  3: [
    InteractionResponseType.ChannelMessageWithSource,
    InteractionResponseType.DeferredChannelMessageWithSource,
    InteractionResponseType.DeferredMessageUpdate,
    InteractionResponseType.UpdateMessage,
    InteractionResponseType.Modal,
    InteractionResponseType.LaunchActivity,
  ],
  4: [InteractionResponseType.ApplicationCommandAutocompleteResult],
  5: [
    InteractionResponseType.ChannelMessageWithSource,
    InteractionResponseType.DeferredChannelMessageWithSource,
    InteractionResponseType.DeferredMessageUpdate,
    InteractionResponseType.UpdateMessage,
    InteractionResponseType.LaunchActivity,
  ],
};

/** Callback types that change the message holding the component. */
const UPDATES: readonly number[] = [
  InteractionResponseType.DeferredMessageUpdate,
  InteractionResponseType.UpdateMessage,
];

export interface ResponseContext {
  interactionType: 2 | 3 | 4 | 5;
  /** Whether the interaction comes with a message (a click, or a modal opened from one): 6 and 7 update it. */
  hasMessage?: boolean;
  appHasActivities: boolean;
  /** The option being autocompleted: its type is the type of the suggested values. */
  focusedOption: OptionDefinition | null;
  /** The message a 7 updates, when the caller has it: its components v2 rules depend on it. */
  updating?: EditedMessageState | undefined;
}

export interface CheckedCallback {
  type: number;
  data?: Record<string, unknown>;
}

const DATA_PATH: IssuePath = ['data'];

function readCallbackType(body: JsonRecord, issues: Issues): number | undefined {
  const raw = fieldOf(body, 'type');
  if (isAbsent(raw)) {
    reportRequired(issues, ['type']);
    return undefined;
  }
  const type = readInteger(raw, ['type'], issues);
  if (type === undefined) return undefined;
  if (CALLBACK_TYPES.includes(type)) return type;
  reportNotOneOf(issues, ['type'], CALLBACK_TYPES);
  return undefined;
}

/** True when `type` may answer this interaction; reports why not otherwise. */
function checkAnswers(type: number, ctx: ResponseContext, issues: Issues): boolean {
  if (!ANSWERS[ctx.interactionType].includes(type) || (UPDATES.includes(type) && ctx.hasMessage !== true)) {
    report(
      issues,
      ['type'],
      INTERACTION_CALLBACK_TYPE_INVALID,
      `Callback type ${type} cannot answer an interaction of type ${ctx.interactionType}.`,
    );
    return false;
  }
  if (type === InteractionResponseType.LaunchActivity && !ctx.appHasActivities) {
    report(
      issues,
      ['type'],
      INTERACTION_CALLBACK_ACTIVITIES_REQUIRED,
      'Only applications with Activities can launch one.',
    );
    return false;
  }
  return true;
}

/** A message response needs something to show; a missing `data` is an empty message. */
function readMessageResponse(raw: unknown, issues: Issues): Record<string, unknown> | undefined {
  if (isAbsent(raw)) {
    reportEmptyMessage(issues);
    return undefined;
  }
  return readMessageData(raw, {}, DATA_PATH, issues);
}

/** A deferred response may say nothing at all. */
function readDeferredResponse(raw: unknown, issues: Issues): Record<string, unknown> | undefined {
  return isAbsent(raw) ? undefined : readMessageData(raw, { forDeferred: true }, DATA_PATH, issues);
}

/** The `data` a callback type carries, checked by that type's rules; LAUNCH_ACTIVITY carries none. */
function readCallbackData(
  type: number,
  raw: unknown,
  ctx: ResponseContext,
  issues: Issues,
): Record<string, unknown> | undefined {
  switch (type) {
    case InteractionResponseType.ChannelMessageWithSource:
      return readMessageResponse(raw, issues);
    case InteractionResponseType.DeferredChannelMessageWithSource:
      return readDeferredResponse(raw, issues);
    case InteractionResponseType.ApplicationCommandAutocompleteResult:
      return readAutocompleteResult(raw, ctx.focusedOption, DATA_PATH, issues);
    case InteractionResponseType.Modal:
      return readModal(raw, DATA_PATH, issues);
    case InteractionResponseType.UpdateMessage:
      // An edit of the message holding the component: fields left out stay as they were.
      return isAbsent(raw)
        ? {}
        : readMessageData(
            raw,
            { partial: true, ...(ctx.updating ? { editing: ctx.updating } : {}) },
            DATA_PATH,
            issues,
          );
    default:
      return undefined;
  }
}

/** Checks a callback body (`POST /interactions/{id}/{token}/callback`, or an inline HTTP answer). */
export function checkCallback(body: unknown, ctx: ResponseContext): Result<CheckedCallback> {
  const issues: Issues = [];
  const record = readRecord(body, [], issues);
  const type = record && readCallbackType(record, issues);
  if (!record || type === undefined || !checkAnswers(type, ctx, issues)) return fail(issues);
  const data = readCallbackData(type, fieldOf(record, 'data'), ctx, issues);
  if (issues.length > 0) return fail(issues);
  return ok(data === undefined ? { type } : { type, data });
}
