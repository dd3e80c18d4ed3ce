import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CommandType, type StoredCommand } from '../../core/commands/model.js';
import type { IssuePath } from '../../core/io/issue.js';
import {
  checkInvocation,
  type InvocationKind,
  type InvocationTarget,
  type WireDataOption,
} from './rules/check-invocation.js';
import * as codes from '../../core/io/codes.js';
import {
  BASE_TYPE_BAD_LENGTH,
  BASE_TYPE_MAX_LENGTH,
  BASE_TYPE_REQUIRED,
  BOOLEAN_TYPE_CONVERT,
  DICT_TYPE_CONVERT,
  LIST_TYPE_CONVERT,
  NUMBER_TYPE_COERCE,
  NUMBER_TYPE_MAX,
  NUMBER_TYPE_MIN,
  STRING_TYPE_CONVERT,
} from '../../core/io/codes.js';
import {
  ALICE,
  BOB,
  CATEGORY,
  ERIN,
  GENERAL,
  GUILD_ID,
  HELLO_MESSAGE,
  MODERATOR_ROLE,
  NOBODY,
  NSFW_LOUNGE,
  THREAD,
  definition,
  dmTarget,
  everyOptionCommand,
  guildTarget,
  invocationData,
  messageCommand,
  stored,
  subcommandCommand,
  userCommand,
} from '../../../test/interactions-fixtures.js';

type Expected = [path: IssuePath, code: string][];

interface Case {
  name: string;
  command: () => StoredCommand;
  /** Fields merged into valid `data` (name, type, id, version); `undefined` values remove a field. */
  data?: Record<string, unknown>;
  /** The whole `data`, when it is not an object at all. */
  rawData?: unknown;
  kind?: InvocationKind;
  target?: () => InvocationTarget;
  issues: Expected;
}

function dataFor(testCase: Case): unknown {
  if ('rawData' in testCase) return testCase.rawData;
  const data = invocationData(testCase.command(), testCase.data);
  for (const [key, value] of Object.entries(data)) if (value === undefined) delete data[key];
  return data;
}

function run(testCase: Case) {
  return checkInvocation(
    testCase.command(),
    dataFor(testCase),
    testCase.kind ?? 'command',
    (testCase.target ?? guildTarget)(),
  );
}

/** A valid `text` option, so that cases about other options do not also miss the required one. */
const TEXT = { name: 'text', type: 3, value: 'hello' };
const opts = (...options: unknown[]) => ({ options });
const at = (...path: (string | number)[]): IssuePath => ['data', 'options', ...path];

const FAILURES: Case[] = [
  // The command itself.
  {
    name: 'data that is not an object',
    command: everyOptionCommand,
    rawData: 'demo',
    issues: [[['data'], DICT_TYPE_CONVERT]],
  },
  {
    name: 'another name',
    command: everyOptionCommand,
    data: { name: 'other', ...opts(TEXT) },
    issues: [[['data', 'name'], codes.INTERACTION_COMMAND_NAME_MISMATCH]],
  },
  {
    name: 'a localized command name',
    command: everyOptionCommand,
    data: { name: 'démo', ...opts(TEXT) },
    issues: [[['data', 'name'], codes.INTERACTION_COMMAND_NAME_MISMATCH]],
  },
  {
    name: 'no name',
    command: everyOptionCommand,
    data: { name: undefined, ...opts(TEXT) },
    issues: [[['data', 'name'], BASE_TYPE_REQUIRED]],
  },
  {
    name: 'a name that is not a string',
    command: everyOptionCommand,
    data: { name: 7, ...opts(TEXT) },
    issues: [[['data', 'name'], STRING_TYPE_CONVERT]],
  },
  {
    name: 'another command type',
    command: everyOptionCommand,
    data: { type: 2, ...opts(TEXT) },
    issues: [[['data', 'type'], codes.INTERACTION_COMMAND_TYPE_MISMATCH]],
  },
  {
    name: 'no type',
    command: everyOptionCommand,
    data: { type: undefined, ...opts(TEXT) },
    issues: [[['data', 'type'], BASE_TYPE_REQUIRED]],
  },
  {
    name: 'a target on a CHAT_INPUT command',
    command: everyOptionCommand,
    data: { target_id: BOB, ...opts(TEXT) },
    issues: [[['data', 'target_id'], codes.INTERACTION_TARGET_NOT_ALLOWED]],
  },

  // The shape of the options list.
  {
    name: 'options that are not a list',
    command: everyOptionCommand,
    data: { options: {} },
    issues: [[at(), LIST_TYPE_CONVERT]],
  },
  {
    name: 'an option that is not an object',
    command: everyOptionCommand,
    data: opts(TEXT, 'count'),
    issues: [[at(1), DICT_TYPE_CONVERT]],
  },
  {
    name: 'an unknown option',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'nope', type: 3, value: 'x' }),
    issues: [[at(1, 'name'), codes.INTERACTION_OPTION_UNKNOWN]],
  },
  {
    name: 'a localized option name (only default names match)',
    command: everyOptionCommand,
    data: opts({ name: 'texte', type: 3, value: 'hello' }),
    issues: [
      [at(0, 'name'), codes.INTERACTION_OPTION_UNKNOWN],
      [at(), codes.INTERACTION_OPTION_REQUIRED],
    ],
  },
  {
    name: 'an option given twice',
    command: everyOptionCommand,
    data: opts(TEXT, TEXT),
    issues: [[at(1, 'name'), codes.INTERACTION_OPTION_DUPLICATE]],
  },
  {
    name: 'an option without a name',
    command: everyOptionCommand,
    data: opts(TEXT, { type: 4, value: 1 }),
    issues: [[at(1, 'name'), BASE_TYPE_REQUIRED]],
  },
  {
    name: 'a required option missing',
    command: everyOptionCommand,
    data: opts({ name: 'count', type: 4, value: 5 }),
    issues: [[at(), codes.INTERACTION_OPTION_REQUIRED]],
  },
  {
    name: 'no options at all when one is required',
    command: everyOptionCommand,
    data: {},
    issues: [[at(), codes.INTERACTION_OPTION_REQUIRED]],
  },
  {
    name: 'an option of another type',
    command: everyOptionCommand,
    data: opts({ name: 'text', type: 4, value: 'hello' }),
    issues: [[at(0, 'type'), codes.INTERACTION_OPTION_TYPE_MISMATCH]],
  },
  {
    name: 'nested options on a value option',
    command: everyOptionCommand,
    data: opts({ ...TEXT, options: [] }),
    issues: [[at(0, 'options'), codes.INTERACTION_OPTION_FIELD_NOT_ALLOWED]],
  },
  {
    name: 'focused outside autocomplete',
    command: everyOptionCommand,
    data: opts({ ...TEXT, focused: true }),
    issues: [[at(0, 'focused'), codes.INTERACTION_OPTION_FIELD_NOT_ALLOWED]],
  },
  {
    name: 'an option without a value',
    command: everyOptionCommand,
    data: opts({ name: 'text', type: 3 }),
    issues: [[at(0, 'value'), BASE_TYPE_REQUIRED]],
  },
  {
    name: 'an option with a null value',
    command: everyOptionCommand,
    data: opts({ name: 'text', type: 3, value: null }),
    issues: [[at(0, 'value'), BASE_TYPE_REQUIRED]],
  },

  // Value types and bounds.
  {
    name: 'STRING given a number',
    command: everyOptionCommand,
    data: opts({ name: 'text', type: 3, value: 12 }),
    issues: [[at(0, 'value'), STRING_TYPE_CONVERT]],
  },
  {
    name: 'STRING below min_length',
    command: everyOptionCommand,
    data: opts({ name: 'text', value: 'a' }),
    issues: [[at(0, 'value'), BASE_TYPE_BAD_LENGTH]],
  },
  {
    name: 'STRING above max_length',
    command: everyOptionCommand,
    data: opts({ name: 'text', value: 'abcdefghijk' }),
    issues: [[at(0, 'value'), BASE_TYPE_BAD_LENGTH]],
  },
  {
    name: 'STRING above max_length in code points',
    command: everyOptionCommand,
    data: opts({ name: 'text', value: '😀'.repeat(11) }),
    issues: [[at(0, 'value'), BASE_TYPE_BAD_LENGTH]],
  },
  {
    name: 'STRING above the default 6000',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'note', value: 'x'.repeat(6001) }),
    issues: [[at(1, 'value'), BASE_TYPE_MAX_LENGTH]],
  },
  {
    name: 'INTEGER given a fraction',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'count', value: 1.5 }),
    issues: [[at(1, 'value'), NUMBER_TYPE_COERCE]],
  },
  {
    name: 'INTEGER given a string',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'count', value: '5' }),
    issues: [[at(1, 'value'), NUMBER_TYPE_COERCE]],
  },
  {
    name: 'INTEGER above max_value',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'count', value: 101 }),
    issues: [[at(1, 'value'), NUMBER_TYPE_MAX]],
  },
  {
    name: 'INTEGER below min_value',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'count', value: 0 }),
    issues: [[at(1, 'value'), NUMBER_TYPE_MIN]],
  },
  {
    name: 'INTEGER above 2^53 - 1',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'big', value: 2 ** 53 }),
    issues: [[at(1, 'value'), NUMBER_TYPE_MAX]],
  },
  {
    name: 'INTEGER below -(2^53 - 1)',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'big', value: -(2 ** 53) }),
    issues: [[at(1, 'value'), NUMBER_TYPE_MIN]],
  },
  {
    name: 'NUMBER that is not finite',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'huge', value: Infinity }),
    issues: [[at(1, 'value'), NUMBER_TYPE_COERCE]],
  },
  {
    name: 'NUMBER above 2^53',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'huge', value: 2 ** 54 }),
    issues: [[at(1, 'value'), NUMBER_TYPE_MAX]],
  },
  {
    name: 'NUMBER below -2^53',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'huge', value: -(2 ** 54) }),
    issues: [[at(1, 'value'), NUMBER_TYPE_MIN]],
  },
  {
    name: 'NUMBER above max_value',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'ratio', value: 1.5 }),
    issues: [[at(1, 'value'), NUMBER_TYPE_MAX]],
  },
  {
    name: 'NUMBER given a string',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'ratio', value: '0.5' }),
    issues: [[at(1, 'value'), NUMBER_TYPE_COERCE]],
  },
  {
    name: 'BOOLEAN given a string',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'flag', value: 'true' }),
    issues: [[at(1, 'value'), BOOLEAN_TYPE_CONVERT]],
  },
  {
    name: 'a STRING that is not a choice',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'size', value: 'medium' }),
    issues: [[at(1, 'value'), codes.INTERACTION_OPTION_INVALID_CHOICE]],
  },
  {
    name: 'a choice name instead of its value',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'size', value: 'Small' }),
    issues: [[at(1, 'value'), codes.INTERACTION_OPTION_INVALID_CHOICE]],
  },
  {
    name: 'an INTEGER that is not a choice',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'level', value: 3 }),
    issues: [[at(1, 'value'), codes.INTERACTION_OPTION_INVALID_CHOICE]],
  },

  // Ids and what they resolve to.
  {
    name: 'USER that is not a snowflake',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'who', value: 'bob' }),
    issues: [[at(1, 'value'), NUMBER_TYPE_COERCE]],
  },
  {
    name: 'USER given as a number',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'who', value: 12345 }),
    issues: [[at(1, 'value'), NUMBER_TYPE_COERCE]],
  },
  {
    name: 'USER that names nobody',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'who', value: NOBODY }),
    issues: [[at(1, 'value'), codes.INTERACTION_UNKNOWN_USER]],
  },
  {
    name: 'ROLE that is no role of the guild',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'role', value: NOBODY }),
    issues: [[at(1, 'value'), codes.INTERACTION_UNKNOWN_ROLE]],
  },
  {
    name: 'ROLE outside a guild',
    command: everyOptionCommand,
    target: dmTarget,
    data: opts(TEXT, { name: 'role', value: MODERATOR_ROLE }),
    issues: [[at(1, 'value'), codes.INTERACTION_UNKNOWN_ROLE]],
  },
  {
    name: 'CHANNEL that is no channel of the guild',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'anywhere', value: NOBODY }),
    issues: [[at(1, 'value'), codes.INTERACTION_UNKNOWN_CHANNEL]],
  },
  {
    name: 'CHANNEL of a type channel_types excludes',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'where', value: CATEGORY }),
    issues: [[at(1, 'value'), codes.INTERACTION_OPTION_CHANNEL_TYPE_INVALID]],
  },
  {
    name: 'CHANNEL: a thread where only text channels are allowed',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'where', value: THREAD }),
    issues: [[at(1, 'value'), codes.INTERACTION_OPTION_CHANNEL_TYPE_INVALID]],
  },
  {
    name: 'CHANNEL outside a guild other than the current one',
    command: everyOptionCommand,
    target: dmTarget,
    data: opts(TEXT, { name: 'anywhere', value: GENERAL }),
    issues: [[at(1, 'value'), codes.INTERACTION_UNKNOWN_CHANNEL]],
  },
  {
    name: 'MENTIONABLE that is neither user nor role',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'any', value: NOBODY }),
    issues: [[at(1, 'value'), codes.INTERACTION_UNKNOWN_MENTIONABLE]],
  },
  {
    name: 'ATTACHMENT that is not a snowflake',
    command: everyOptionCommand,
    data: opts(TEXT, { name: 'file', value: 'file.png' }),
    issues: [[at(1, 'value'), NUMBER_TYPE_COERCE]],
  },
  {
    name: 'every wrong option is reported, not only the first',
    command: everyOptionCommand,
    data: opts({ name: 'count', value: 0 }, { name: 'flag', value: 1 }, { name: 'who', value: NOBODY }),
    issues: [
      [at(0, 'value'), NUMBER_TYPE_MIN],
      [at(1, 'value'), BOOLEAN_TYPE_CONVERT],
      [at(2, 'value'), codes.INTERACTION_UNKNOWN_USER],
      [at(), codes.INTERACTION_OPTION_REQUIRED],
    ],
  },

  // Subcommands and groups.
  {
    name: 'the base of a command with subcommands',
    command: subcommandCommand,
    data: {},
    issues: [[at(), codes.INTERACTION_SUBCOMMAND_REQUIRED]],
  },
  {
    name: 'the base with an empty options list',
    command: subcommandCommand,
    data: opts(),
    issues: [[at(), codes.INTERACTION_SUBCOMMAND_REQUIRED]],
  },
  {
    name: 'a group without a subcommand',
    command: subcommandCommand,
    data: opts({ name: 'config', type: 2 }),
    issues: [[at(0, 'options'), codes.INTERACTION_SUBCOMMAND_REQUIRED]],
  },
  {
    name: 'a group that has no subcommands',
    command: subcommandCommand,
    data: opts({ name: 'empty', type: 2, options: [] }),
    issues: [[at(0, 'options'), codes.INTERACTION_SUBCOMMAND_REQUIRED]],
  },
  {
    name: 'two subcommands at once',
    command: subcommandCommand,
    data: opts(
      { name: 'ping', type: 1 },
      { name: 'config', type: 2, options: [{ name: 'get', type: 1, options: [{ name: 'key', type: 3, value: 'a' }] }] },
    ),
    issues: [[at(1, 'name'), codes.INTERACTION_SUBCOMMAND_MULTIPLE]],
  },
  {
    name: 'a value on a subcommand',
    command: subcommandCommand,
    data: opts({ name: 'ping', type: 1, value: 'x' }),
    issues: [[at(0, 'value'), codes.INTERACTION_OPTION_FIELD_NOT_ALLOWED]],
  },
  {
    name: 'a leaf option where a subcommand belongs',
    command: subcommandCommand,
    data: opts({ name: 'key', type: 3, value: 'a' }),
    issues: [
      [at(0, 'name'), codes.INTERACTION_OPTION_UNKNOWN],
      [at(), codes.INTERACTION_SUBCOMMAND_REQUIRED],
    ],
  },
  {
    name: 'a subcommand of another group',
    command: subcommandCommand,
    data: opts({ name: 'config', type: 2, options: [{ name: 'ping', type: 1 }] }),
    issues: [
      [at(0, 'options', 0, 'name'), codes.INTERACTION_OPTION_UNKNOWN],
      [at(0, 'options'), codes.INTERACTION_SUBCOMMAND_REQUIRED],
    ],
  },
  {
    name: 'a required option of a subcommand missing',
    command: subcommandCommand,
    data: opts({ name: 'config', type: 2, options: [{ name: 'set', type: 1, options: [] }] }),
    issues: [[at(0, 'options', 0, 'options'), codes.INTERACTION_OPTION_REQUIRED]],
  },
  {
    name: 'a wrong value deep inside a group',
    command: subcommandCommand,
    data: opts({
      name: 'config',
      type: 2,
      options: [
        {
          name: 'set',
          type: 1,
          options: [
            { name: 'key', type: 3, value: 'k' },
            { name: 'value', type: 3, value: 5 },
          ],
        },
      ],
    }),
    issues: [[at(0, 'options', 0, 'options', 1, 'value'), STRING_TYPE_CONVERT]],
  },
  {
    name: 'options of a subcommand that are not a list',
    command: subcommandCommand,
    data: opts({ name: 'ping', type: 1, options: 'x' }),
    issues: [[at(0, 'options'), LIST_TYPE_CONVERT]],
  },

  // Targets of context-menu commands.
  {
    name: 'a USER command without a target',
    command: userCommand,
    data: {},
    issues: [[['data', 'target_id'], BASE_TYPE_REQUIRED]],
  },
  {
    name: 'a USER command targeting nobody',
    command: userCommand,
    data: { target_id: NOBODY },
    issues: [[['data', 'target_id'], codes.INTERACTION_UNKNOWN_USER]],
  },
  {
    name: 'a USER command target that is not a snowflake',
    command: userCommand,
    data: { target_id: 'bob' },
    issues: [[['data', 'target_id'], NUMBER_TYPE_COERCE]],
  },
  {
    name: 'a localized USER command name',
    command: userCommand,
    data: { name: 'Inspecter', target_id: BOB },
    issues: [[['data', 'name'], codes.INTERACTION_COMMAND_NAME_MISMATCH]],
  },
  {
    name: 'a USER command with options',
    command: userCommand,
    data: { target_id: BOB, ...opts(TEXT) },
    issues: [[at(), codes.INTERACTION_OPTIONS_NOT_ALLOWED]],
  },
  {
    name: 'a MESSAGE command without a target',
    command: messageCommand,
    data: {},
    issues: [[['data', 'target_id'], BASE_TYPE_REQUIRED]],
  },
  {
    name: 'a MESSAGE command targeting no message',
    command: messageCommand,
    data: { target_id: NOBODY },
    issues: [[['data', 'target_id'], codes.INTERACTION_UNKNOWN_MESSAGE]],
  },
  {
    name: 'a MESSAGE command targeting a message of another channel',
    command: messageCommand,
    target: () => guildTarget(NSFW_LOUNGE),
    data: { target_id: HELLO_MESSAGE },
    issues: [[['data', 'target_id'], codes.INTERACTION_UNKNOWN_MESSAGE]],
  },
  {
    name: 'a MESSAGE command with options',
    command: messageCommand,
    data: { target_id: HELLO_MESSAGE, options: [{ name: 'x', value: 1 }] },
    issues: [[at(), codes.INTERACTION_OPTIONS_NOT_ALLOWED]],
  },

  // Entry points take neither options nor a target.
  {
    name: 'an entry point command with a target',
    command: entryPointCommand,
    data: { target_id: BOB },
    issues: [[['data', 'target_id'], codes.INTERACTION_TARGET_NOT_ALLOWED]],
  },
  {
    name: 'an entry point command with an option',
    command: entryPointCommand,
    data: opts(TEXT),
    issues: [[at(0, 'name'), codes.INTERACTION_OPTION_UNKNOWN]],
  },
  {
    name: 'autocomplete of an entry point command',
    command: entryPointCommand,
    kind: 'autocomplete',
    data: {},
    issues: [[['type'], codes.INTERACTION_AUTOCOMPLETE_COMMAND_TYPE_INVALID]],
  },

  // Autocomplete.
  {
    name: 'autocomplete of a USER command',
    command: userCommand,
    kind: 'autocomplete',
    data: { target_id: BOB },
    issues: [[['type'], codes.INTERACTION_AUTOCOMPLETE_COMMAND_TYPE_INVALID]],
  },
  {
    name: 'autocomplete of a MESSAGE command',
    command: messageCommand,
    kind: 'autocomplete',
    data: { target_id: HELLO_MESSAGE },
    issues: [[['type'], codes.INTERACTION_AUTOCOMPLETE_COMMAND_TYPE_INVALID]],
  },
  {
    name: 'autocomplete without a focused option',
    command: everyOptionCommand,
    kind: 'autocomplete',
    data: opts({ name: 'query', value: 'ab' }),
    issues: [[at(), codes.INTERACTION_AUTOCOMPLETE_FOCUS_REQUIRED]],
  },
  {
    name: 'autocomplete with no options',
    command: everyOptionCommand,
    kind: 'autocomplete',
    data: {},
    issues: [[at(), codes.INTERACTION_AUTOCOMPLETE_FOCUS_REQUIRED]],
  },
  {
    name: 'autocomplete with two focused options',
    command: everyOptionCommand,
    kind: 'autocomplete',
    data: opts({ name: 'query', value: 'ab', focused: true }, { name: 'amount', value: '1', focused: true }),
    issues: [[at(1, 'focused'), codes.INTERACTION_AUTOCOMPLETE_FOCUS_MULTIPLE]],
  },
  {
    name: 'focus on an option without autocomplete',
    command: everyOptionCommand,
    kind: 'autocomplete',
    data: opts({ name: 'text', value: 'he', focused: true }),
    issues: [[at(0, 'focused'), codes.INTERACTION_AUTOCOMPLETE_NOT_ENABLED]],
  },
  {
    name: 'focused that is not a boolean',
    command: everyOptionCommand,
    kind: 'autocomplete',
    data: opts({ name: 'query', value: 'a', focused: 'yes' }),
    issues: [
      [at(0, 'focused'), BOOLEAN_TYPE_CONVERT],
      [at(), codes.INTERACTION_AUTOCOMPLETE_FOCUS_REQUIRED],
    ],
  },
  {
    name: 'a focused option without a value',
    command: everyOptionCommand,
    kind: 'autocomplete',
    data: opts({ name: 'query', focused: true }),
    issues: [[at(0, 'value'), BASE_TYPE_REQUIRED]],
  },
  {
    name: 'a focused STRING that is not a string',
    command: everyOptionCommand,
    kind: 'autocomplete',
    data: opts({ name: 'query', value: 3, focused: true }),
    issues: [[at(0, 'value'), STRING_TYPE_CONVERT]],
  },
  {
    name: 'a focused INTEGER that is no number',
    command: everyOptionCommand,
    kind: 'autocomplete',
    data: opts({ name: 'amount', value: 'abc', focused: true }),
    issues: [[at(0, 'value'), NUMBER_TYPE_COERCE]],
  },
  {
    name: 'a focused INTEGER with a fraction',
    command: everyOptionCommand,
    kind: 'autocomplete',
    data: opts({ name: 'amount', value: '1.5', focused: true }),
    issues: [[at(0, 'value'), NUMBER_TYPE_COERCE]],
  },
  {
    name: 'a focused INTEGER as a JSON fraction',
    command: everyOptionCommand,
    kind: 'autocomplete',
    data: opts({ name: 'amount', value: 1.5, focused: true }),
    issues: [[at(0, 'value'), NUMBER_TYPE_COERCE]],
  },
  {
    name: 'a focused INTEGER beyond 2^53 - 1',
    command: everyOptionCommand,
    kind: 'autocomplete',
    data: opts({ name: 'amount', value: '9007199254740993', focused: true }),
    issues: [[at(0, 'value'), NUMBER_TYPE_MAX]],
  },
  {
    name: 'a focused NUMBER that is a lone sign',
    command: everyOptionCommand,
    kind: 'autocomplete',
    data: opts({ name: 'weight', value: '-', focused: true }),
    issues: [[at(0, 'value'), NUMBER_TYPE_COERCE]],
  },
  {
    name: 'a focused NUMBER that overflows',
    command: everyOptionCommand,
    kind: 'autocomplete',
    data: opts({ name: 'weight', value: '1e999', focused: true }),
    issues: [[at(0, 'value'), NUMBER_TYPE_COERCE]],
  },
  {
    name: 'a focused NUMBER with spaces',
    command: everyOptionCommand,
    kind: 'autocomplete',
    data: opts({ name: 'weight', value: ' 1', focused: true }),
    issues: [[at(0, 'value'), NUMBER_TYPE_COERCE]],
  },
  {
    name: 'filled options are still checked during autocomplete',
    command: everyOptionCommand,
    kind: 'autocomplete',
    data: opts({ name: 'count', value: 500 }, { name: 'query', value: 'ab', focused: true }),
    issues: [[at(0, 'value'), NUMBER_TYPE_MAX]],
  },
  {
    name: 'autocomplete still needs a subcommand',
    command: subcommandCommand,
    kind: 'autocomplete',
    data: {},
    issues: [
      [at(), codes.INTERACTION_SUBCOMMAND_REQUIRED],
      [at(), codes.INTERACTION_AUTOCOMPLETE_FOCUS_REQUIRED],
    ],
  },
];

function issuePairs(result: ReturnType<typeof checkInvocation>): Expected {
  return result.ok ? [] : result.issues.map((found) => [found.path, found.code]);
}

describe('checkInvocation refuses', () => {
  for (const testCase of FAILURES) {
    it(testCase.name, () => {
      const result = run(testCase);
      assert.equal(result.ok, false, 'expected a refusal');
      assert.deepEqual(issuePairs(result), testCase.issues);
    });
  }

  it('uses only codes it declares or the base validation codes', () => {
    const declared = new Set(codes.INTERACTION_CODES);
    for (const testCase of FAILURES) {
      const result = run(testCase);
      if (result.ok) continue;
      for (const found of result.issues) {
        assert.ok(
          declared.has(found.code) || /^(BASE|STRING|NUMBER|BOOLEAN|DICT|LIST)_TYPE_/.test(found.code),
          found.code,
        );
        assert.ok(found.message.length > 0);
      }
    }
  });
});

function accept(
  command: StoredCommand,
  extra: Record<string, unknown>,
  kind: InvocationKind = 'command',
  target: InvocationTarget = guildTarget(),
) {
  const result = checkInvocation(command, invocationData(command, extra), kind, target);
  if (!result.ok) assert.fail(`refused: ${JSON.stringify(result.issues)}`);
  return result.value;
}

describe('checkInvocation accepts', () => {
  it('one required option, normalized to the wire shape', () => {
    const checked = accept(everyOptionCommand(), opts({ name: 'text', value: 'hi' }));
    assert.deepEqual(checked.options, [{ name: 'text', type: 3, value: 'hi' }]);
    assert.equal(checked.focused, null);
    assert.equal(checked.target_id, null);
    assert.deepEqual(checked.referenced, {
      users: [],
      members: [],
      roles: [],
      channels: [],
      messages: [],
      attachments: [],
    });
  });

  it('lengths in code points: ten emoji fit max_length 10', () => {
    const checked = accept(everyOptionCommand(), opts({ name: 'text', value: '😀'.repeat(10) }));
    assert.equal(checked.options?.[0]?.value, '😀'.repeat(10));
  });

  it('the bounds themselves', () => {
    accept(
      everyOptionCommand(),
      opts(
        { name: 'text', value: 'ab' },
        { name: 'count', value: 1 },
        { name: 'ratio', value: 1 },
        { name: 'big', value: Number.MAX_SAFE_INTEGER },
        { name: 'huge', value: -(2 ** 53) },
      ),
    );
    accept(
      everyOptionCommand(),
      opts(
        { name: 'text', value: 'abcdefghij' },
        { name: 'count', value: 100 },
        { name: 'ratio', value: 0 },
        { name: 'big', value: -Number.MAX_SAFE_INTEGER },
        { name: 'huge', value: 2 ** 53 },
      ),
    );
  });

  it('every option type, keeping the order the client sent', () => {
    const options: WireDataOption[] = [
      { name: 'file', type: 11, value: NOBODY },
      { name: 'text', type: 3, value: 'hello' },
      { name: 'count', type: 4, value: 42 },
      { name: 'ratio', type: 10, value: 0.25 },
      { name: 'flag', type: 5, value: false },
      { name: 'who', type: 6, value: BOB },
      { name: 'where', type: 7, value: GENERAL },
      { name: 'anywhere', type: 7, value: CATEGORY },
      { name: 'role', type: 8, value: MODERATOR_ROLE },
      { name: 'any', type: 9, value: ERIN },
      { name: 'size', type: 3, value: 'large' },
      { name: 'level', type: 4, value: 2 },
      { name: 'query', type: 3, value: 'abc' },
    ];
    const checked = accept(everyOptionCommand(), { options });
    assert.deepEqual(checked.options, options);
    assert.deepEqual(checked.referenced, {
      users: [BOB, ERIN],
      members: [BOB],
      roles: [MODERATOR_ROLE],
      channels: [GENERAL, CATEGORY],
      messages: [],
      attachments: [NOBODY],
    });
  });

  it('an option without its type: the definition supplies it', () => {
    const checked = accept(everyOptionCommand(), opts({ name: 'text', value: 'hello' }));
    assert.equal(checked.options?.[0]?.type, 3);
  });

  it('a MENTIONABLE role and a repeated id resolved once', () => {
    const checked = accept(
      everyOptionCommand(),
      opts(
        TEXT,
        { name: 'any', value: MODERATOR_ROLE },
        { name: 'role', value: MODERATOR_ROLE },
        { name: 'who', value: ALICE },
      ),
    );
    assert.deepEqual(checked.referenced.roles, [MODERATOR_ROLE]);
    assert.deepEqual(checked.referenced.users, [ALICE]);
  });

  it('@everyone (the guild id) as a ROLE', () => {
    const checked = accept(everyOptionCommand(), opts(TEXT, { name: 'role', value: GUILD_ID }));
    assert.deepEqual(checked.referenced.roles, [GUILD_ID]);
  });

  it('outside a guild: users but no members, and the current channel', () => {
    const target = dmTarget();
    const checked = accept(
      everyOptionCommand(),
      opts(TEXT, { name: 'who', value: BOB }, { name: 'anywhere', value: target.channel.id }),
      'command',
      target,
    );
    assert.deepEqual(checked.referenced.users, [BOB]);
    assert.deepEqual(checked.referenced.members, []);
    assert.deepEqual(checked.referenced.channels, [target.channel.id]);
  });

  it('a command without options, with options absent, null or empty', () => {
    for (const extra of [{}, { options: null }, { options: [] }]) {
      const checked = accept(everyOptionCommandWithoutOptions(), extra);
      assert.equal(checked.options, undefined);
    }
  });

  it('a subcommand inside a group, nested as v10 sends it', () => {
    const checked = accept(
      subcommandCommand(),
      opts({
        name: 'config',
        type: 2,
        options: [{ name: 'set', type: 1, options: [{ name: 'key', type: 3, value: 'k' }] }],
      }),
    );
    assert.deepEqual(checked.options, [
      { name: 'config', type: 2, options: [{ name: 'set', type: 1, options: [{ name: 'key', type: 3, value: 'k' }] }] },
    ]);
  });

  it('a subcommand without options', () => {
    const checked = accept(subcommandCommand(), opts({ name: 'ping', type: 1 }));
    assert.deepEqual(checked.options, [{ name: 'ping', type: 1, options: [] }]);
  });

  it('a USER command: a member target is a user and a member', () => {
    const checked = accept(userCommand(), { target_id: BOB });
    assert.equal(checked.target_id, BOB);
    assert.equal(checked.options, undefined);
    assert.deepEqual(checked.referenced.users, [BOB]);
    assert.deepEqual(checked.referenced.members, [BOB]);
  });

  it('a USER command: a user who is not a member', () => {
    const checked = accept(userCommand(), { target_id: ERIN, options: [] });
    assert.deepEqual(checked.referenced.users, [ERIN]);
    assert.deepEqual(checked.referenced.members, []);
  });

  it('an entry point command', () => {
    const checked = accept(entryPointCommand(), {});
    assert.equal(checked.options, undefined);
    assert.equal(checked.target_id, null);
  });

  it('a MESSAGE command on a message of the channel', () => {
    const checked = accept(messageCommand(), { target_id: HELLO_MESSAGE });
    assert.equal(checked.target_id, HELLO_MESSAGE);
    assert.deepEqual(checked.referenced.messages, [HELLO_MESSAGE]);
  });
});

describe('checkInvocation for autocomplete', () => {
  it('a partial string passes whatever its length, and required options may be missing', () => {
    const checked = accept(
      everyOptionCommand(),
      opts({ name: 'query', type: 3, value: 'much too long', focused: true }),
      'autocomplete',
    );
    assert.deepEqual(checked.options, [{ name: 'query', type: 3, value: 'much too long', focused: true }]);
    assert.equal(checked.focused?.option.name, 'query');
    assert.deepEqual(checked.focused?.path, ['query']);
  });

  it('filled options come along without focused', () => {
    const checked = accept(
      everyOptionCommand(),
      opts(
        { name: 'count', value: 5 },
        { name: 'query', value: '', focused: true },
        { name: 'flag', value: true, focused: false },
      ),
      'autocomplete',
    );
    assert.deepEqual(checked.options, [
      { name: 'count', type: 4, value: 5 },
      { name: 'query', type: 3, value: '', focused: true },
      { name: 'flag', type: 5, value: true },
    ]);
  });

  const numericInputs: [name: string, value: unknown, delivered: string][] = [
    ['amount', '', ''],
    ['amount', '5', '5'],
    ['amount', '-12', '-12'],
    ['amount', 5, '5'],
    ['weight', '', ''],
    ['weight', '1.', '1.'],
    ['weight', '-1.5e3', '-1.5e3'],
    ['weight', '.5', '.5'],
    ['weight', 0.5, '0.5'],
  ];
  for (const [name, value, delivered] of numericInputs) {
    it(`a focused ${name} typed as ${JSON.stringify(value)} reaches the app as ${JSON.stringify(delivered)}, bounds unchecked`, () => {
      const checked = accept(everyOptionCommand(), opts({ name, value, focused: true }), 'autocomplete');
      assert.equal(checked.options?.[0]?.value, delivered);
    });
  }

  it('the focused option inside a subcommand, with its path', () => {
    const checked = accept(
      subcommandCommand(),
      opts({
        name: 'config',
        type: 2,
        options: [{ name: 'set', type: 1, options: [{ name: 'value', type: 3, value: 'pa', focused: true }] }],
      }),
      'autocomplete',
    );
    assert.deepEqual(checked.focused?.path, ['config', 'set', 'value']);
    assert.equal(checked.focused?.option.autocomplete, true);
  });
});

function entryPointCommand(): StoredCommand {
  return stored(definition({ type: CommandType.PrimaryEntryPoint, name: 'launch', handler: 1, contexts: [0, 1, 2] }));
}

function everyOptionCommandWithoutOptions(): StoredCommand {
  const command = everyOptionCommand();
  return { ...command, definition: { ...command.definition, options: [] } };
}
