import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OptionType, type OptionDefinition } from '../../core/commands/model.js';
import type { IssuePath } from '../../core/io/issue.js';
import * as codes from '../../core/io/codes.js';
import {
  checkCallback,
  checkMessageData,
  isEmptyMessageFailure,
  type MessageDataOptions,
  type ResponseContext,
} from './rules/responses.js';
import {
  BASE_TYPE_BAD_LENGTH,
  BASE_TYPE_CHOICES,
  BASE_TYPE_MAX_LENGTH,
  BASE_TYPE_REQUIRED,
  BOOLEAN_TYPE_CONVERT,
  DICT_TYPE_CONVERT,
  LIST_TYPE_CONVERT,
  NUMBER_TYPE_COERCE,
  STRING_TYPE_CONVERT,
} from '../../core/io/codes.js';
import { BOB, option } from '../../../test/interactions-fixtures.js';
import { apiError } from '../../core/io/errors.js';

type Expected = [path: IssuePath, code: string][];

const COMMAND: ResponseContext = { interactionType: 2, appHasActivities: false, focusedOption: null };
const COMMAND_WITH_ACTIVITIES: ResponseContext = { ...COMMAND, appHasActivities: true };
const autocomplete = (focusedOption: OptionDefinition | null): ResponseContext => ({
  interactionType: 4,
  appHasActivities: true,
  focusedOption,
});
const STRING_FOCUS = autocomplete(option(OptionType.String, 'query', { autocomplete: true }));
const INTEGER_FOCUS = autocomplete(option(OptionType.Integer, 'amount', { autocomplete: true }));
const NUMBER_FOCUS = autocomplete(option(OptionType.Number, 'weight', { autocomplete: true }));

function pairs(result: { ok: true } | { ok: false; issues: readonly { path: IssuePath; code: string }[] }): Expected {
  return result.ok ? [] : result.issues.map((found) => [found.path, found.code]);
}

const choice = (name: string, value: unknown) => ({ name, value });
const choices = (count: number) => Array.from({ length: count }, (_, index) => choice(`c${index}`, `v${index}`));
const modal = (extra: Record<string, unknown> = {}) => ({
  custom_id: 'form',
  title: 'A form',
  components: [{ type: 1, components: [{ type: 4, custom_id: 'topic', style: 1, label: 'Topic' }] }],
  ...extra,
});

interface CallbackCase {
  name: string;
  body: unknown;
  ctx: ResponseContext;
  issues: Expected;
}

const REFUSED_CALLBACKS: CallbackCase[] = [
  { name: 'a body that is not an object', body: [], ctx: COMMAND, issues: [[[], DICT_TYPE_CONVERT]] },
  { name: 'no type', body: {}, ctx: COMMAND, issues: [[['type'], BASE_TYPE_REQUIRED]] },
  {
    name: 'a type that is not an integer',
    body: { type: '4' },
    ctx: COMMAND,
    issues: [[['type'], NUMBER_TYPE_COERCE]],
  },
  { name: 'an unknown type', body: { type: 3 }, ctx: COMMAND, issues: [[['type'], BASE_TYPE_CHOICES]] },
  { name: 'another unknown type', body: { type: 11 }, ctx: COMMAND, issues: [[['type'], BASE_TYPE_CHOICES]] },
  {
    name: 'PONG for a command',
    body: { type: 1 },
    ctx: COMMAND,
    issues: [[['type'], codes.INTERACTION_CALLBACK_TYPE_INVALID]],
  },
  {
    name: 'PONG for autocomplete',
    body: { type: 1 },
    ctx: STRING_FOCUS,
    issues: [[['type'], codes.INTERACTION_CALLBACK_TYPE_INVALID]],
  },
  {
    name: 'DEFERRED_UPDATE_MESSAGE (components only) for a command',
    body: { type: 6 },
    ctx: COMMAND,
    issues: [[['type'], codes.INTERACTION_CALLBACK_TYPE_INVALID]],
  },
  {
    name: 'UPDATE_MESSAGE (components only) for a command',
    body: { type: 7, data: { content: 'x' } },
    ctx: COMMAND,
    issues: [[['type'], codes.INTERACTION_CALLBACK_TYPE_INVALID]],
  },
  {
    name: 'UPDATE_MESSAGE for autocomplete',
    body: { type: 7, data: { content: 'x' } },
    ctx: STRING_FOCUS,
    issues: [[['type'], codes.INTERACTION_CALLBACK_TYPE_INVALID]],
  },
  {
    name: 'PREMIUM_REQUIRED (deprecated)',
    body: { type: 10 },
    ctx: COMMAND,
    issues: [[['type'], codes.INTERACTION_CALLBACK_TYPE_INVALID]],
  },
  {
    name: 'a message for autocomplete',
    body: { type: 4, data: { content: 'x' } },
    ctx: STRING_FOCUS,
    issues: [[['type'], codes.INTERACTION_CALLBACK_TYPE_INVALID]],
  },
  {
    name: 'a deferred message for autocomplete',
    body: { type: 5 },
    ctx: STRING_FOCUS,
    issues: [[['type'], codes.INTERACTION_CALLBACK_TYPE_INVALID]],
  },
  {
    name: 'a modal for autocomplete',
    body: { type: 9, data: modal() },
    ctx: STRING_FOCUS,
    issues: [[['type'], codes.INTERACTION_CALLBACK_TYPE_INVALID]],
  },
  {
    name: 'LAUNCH_ACTIVITY for autocomplete',
    body: { type: 12 },
    ctx: STRING_FOCUS,
    issues: [[['type'], codes.INTERACTION_CALLBACK_TYPE_INVALID]],
  },
  {
    name: 'an autocomplete result for a command',
    body: { type: 8, data: { choices: [] } },
    ctx: COMMAND,
    issues: [[['type'], codes.INTERACTION_CALLBACK_TYPE_INVALID]],
  },
  {
    name: 'LAUNCH_ACTIVITY from an app without Activities',
    body: { type: 12 },
    ctx: COMMAND,
    issues: [[['type'], codes.INTERACTION_CALLBACK_ACTIVITIES_REQUIRED]],
  },

  // 4: CHANNEL_MESSAGE_WITH_SOURCE
  { name: 'a message without data', body: { type: 4 }, ctx: COMMAND, issues: [[[], codes.MESSAGE_EMPTY]] },
  { name: 'a message with empty data', body: { type: 4, data: {} }, ctx: COMMAND, issues: [[[], codes.MESSAGE_EMPTY]] },
  {
    name: 'a message with empty content only',
    body: { type: 4, data: { content: '', embeds: [], flags: 64 } },
    ctx: COMMAND,
    issues: [[[], codes.MESSAGE_EMPTY]],
  },
  {
    name: 'a message with data that is not an object',
    body: { type: 4, data: 'hi' },
    ctx: COMMAND,
    issues: [[['data'], DICT_TYPE_CONVERT]],
  },
  {
    name: 'a message above 2000 characters',
    body: { type: 4, data: { content: 'x'.repeat(2001) } },
    ctx: COMMAND,
    issues: [[['data', 'content'], BASE_TYPE_MAX_LENGTH]],
  },
  {
    name: 'a message with a flag it may not set',
    body: { type: 4, data: { content: 'x', flags: 2 } },
    ctx: COMMAND,
    issues: [[['data', 'flags'], codes.MESSAGE_FLAGS_INVALID]],
  },

  // 5: DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
  {
    name: 'a deferred message with SUPPRESS_EMBEDS',
    body: { type: 5, data: { flags: 4 } },
    ctx: COMMAND,
    issues: [[['data', 'flags'], codes.MESSAGE_FLAGS_INVALID]],
  },
  {
    name: 'a deferred message with data that is not an object',
    body: { type: 5, data: 64 },
    ctx: COMMAND,
    issues: [[['data'], DICT_TYPE_CONVERT]],
  },

  // 8: APPLICATION_COMMAND_AUTOCOMPLETE_RESULT
  { name: 'suggestions without data', body: { type: 8 }, ctx: STRING_FOCUS, issues: [[['data'], BASE_TYPE_REQUIRED]] },
  {
    name: 'suggestions without choices',
    body: { type: 8, data: {} },
    ctx: STRING_FOCUS,
    issues: [[['data', 'choices'], BASE_TYPE_REQUIRED]],
  },
  {
    name: 'choices that are not a list',
    body: { type: 8, data: { choices: {} } },
    ctx: STRING_FOCUS,
    issues: [[['data', 'choices'], LIST_TYPE_CONVERT]],
  },
  {
    name: 'more than 25 suggestions',
    body: { type: 8, data: { choices: choices(26) } },
    ctx: STRING_FOCUS,
    issues: [[['data', 'choices'], BASE_TYPE_MAX_LENGTH]],
  },
  {
    name: 'a suggestion with an empty name',
    body: { type: 8, data: { choices: [choice('', 'v')] } },
    ctx: STRING_FOCUS,
    issues: [[['data', 'choices', 0, 'name'], BASE_TYPE_BAD_LENGTH]],
  },
  {
    name: 'a suggestion name above 100',
    body: { type: 8, data: { choices: [choice('n'.repeat(101), 'v')] } },
    ctx: STRING_FOCUS,
    issues: [[['data', 'choices', 0, 'name'], BASE_TYPE_BAD_LENGTH]],
  },
  {
    name: 'a suggestion without a name',
    body: { type: 8, data: { choices: [{ value: 'v' }] } },
    ctx: STRING_FOCUS,
    issues: [[['data', 'choices', 0, 'name'], BASE_TYPE_REQUIRED]],
  },
  {
    name: 'a suggestion without a value',
    body: { type: 8, data: { choices: [{ name: 'n' }] } },
    ctx: STRING_FOCUS,
    issues: [[['data', 'choices', 0, 'value'], BASE_TYPE_REQUIRED]],
  },
  {
    name: 'a string suggestion above 100',
    body: { type: 8, data: { choices: [choice('n', 'v'.repeat(101))] } },
    ctx: STRING_FOCUS,
    issues: [[['data', 'choices', 0, 'value'], BASE_TYPE_MAX_LENGTH]],
  },
  {
    name: 'a number suggested for a STRING option',
    body: { type: 8, data: { choices: [choice('n', 1)] } },
    ctx: STRING_FOCUS,
    issues: [[['data', 'choices', 0, 'value'], STRING_TYPE_CONVERT]],
  },
  {
    name: 'a string suggested for an INTEGER option',
    body: { type: 8, data: { choices: [choice('n', '1')] } },
    ctx: INTEGER_FOCUS,
    issues: [[['data', 'choices', 0, 'value'], NUMBER_TYPE_COERCE]],
  },
  {
    name: 'a fraction suggested for an INTEGER option',
    body: { type: 8, data: { choices: [choice('n', 1.5)] } },
    ctx: INTEGER_FOCUS,
    issues: [[['data', 'choices', 0, 'value'], NUMBER_TYPE_COERCE]],
  },
  {
    name: 'a suggestion with a bad localization',
    body: { type: 8, data: { choices: [{ name: 'n', value: 'v', name_localizations: { xx: 'n' } }] } },
    ctx: STRING_FOCUS,
    issues: [[['data', 'choices', 0, 'name_localizations', 'xx'], BASE_TYPE_CHOICES]],
  },

  // 9: MODAL
  { name: 'a modal without data', body: { type: 9 }, ctx: COMMAND, issues: [[['data'], BASE_TYPE_REQUIRED]] },
  {
    name: 'a modal without custom_id',
    body: { type: 9, data: modal({ custom_id: undefined }) },
    ctx: COMMAND,
    issues: [[['data', 'custom_id'], BASE_TYPE_REQUIRED]],
  },
  {
    name: 'a modal custom_id above 100',
    body: { type: 9, data: modal({ custom_id: 'c'.repeat(101) }) },
    ctx: COMMAND,
    issues: [[['data', 'custom_id'], BASE_TYPE_BAD_LENGTH]],
  },
  {
    name: 'a modal with an empty custom_id',
    body: { type: 9, data: modal({ custom_id: '' }) },
    ctx: COMMAND,
    issues: [[['data', 'custom_id'], BASE_TYPE_BAD_LENGTH]],
  },
  {
    name: 'a modal without title',
    body: { type: 9, data: modal({ title: undefined }) },
    ctx: COMMAND,
    issues: [[['data', 'title'], BASE_TYPE_REQUIRED]],
  },
  {
    name: 'a modal title above 45',
    body: { type: 9, data: modal({ title: 't'.repeat(46) }) },
    ctx: COMMAND,
    issues: [[['data', 'title'], BASE_TYPE_BAD_LENGTH]],
  },
  {
    name: 'a modal without components',
    body: { type: 9, data: modal({ components: undefined }) },
    ctx: COMMAND,
    issues: [[['data', 'components'], BASE_TYPE_REQUIRED]],
  },
  {
    name: 'a modal with no components',
    body: { type: 9, data: modal({ components: [] }) },
    ctx: COMMAND,
    issues: [[['data', 'components'], BASE_TYPE_BAD_LENGTH]],
  },
  {
    name: 'a modal with six components',
    body: { type: 9, data: modal({ components: Array.from({ length: 6 }, () => ({ type: 1 })) }) },
    ctx: COMMAND,
    issues: [[['data', 'components'], BASE_TYPE_BAD_LENGTH]],
  },
  {
    name: 'a modal component that is not an object',
    body: { type: 9, data: modal({ components: ['row'] }) },
    ctx: COMMAND,
    issues: [[['data', 'components', 0], DICT_TYPE_CONVERT]],
  },
];

describe('checkCallback refuses', () => {
  for (const testCase of REFUSED_CALLBACKS) {
    it(testCase.name, () => {
      const body = structuredClone(testCase.body);
      if (body && typeof body === 'object' && 'data' in body && body.data && typeof body.data === 'object') {
        for (const [key, value] of Object.entries(body.data))
          if (value === undefined) delete (body.data as Record<string, unknown>)[key];
      }
      const result = checkCallback(body, testCase.ctx);
      assert.equal(result.ok, false);
      assert.deepEqual(pairs(result), testCase.issues);
    });
  }
});

describe('checkCallback accepts', () => {
  function accepted(body: unknown, ctx: ResponseContext) {
    const result = checkCallback(body, ctx);
    if (!result.ok) assert.fail(JSON.stringify(result.issues));
    return result.value;
  }

  it('a message, keeping only the fields it understands', () => {
    const value = accepted({ type: 4, data: { content: 'hi', flags: 64, tts: false, username: 'ignored' } }, COMMAND);
    assert.deepEqual(value, { type: 4, data: { content: 'hi', flags: 64, tts: false } });
  });

  it('a message with every allowed flag', () => {
    accepted({ type: 4, data: { content: 'hi', flags: 64 | 4 | 4096 } }, COMMAND);
  });

  it('a message with only an embed, only components, only an attachment or only a poll', () => {
    accepted({ type: 4, data: { embeds: [{ title: 'x' }] } }, COMMAND);
    accepted(
      {
        type: 4,
        data: { components: [{ type: 1, components: [{ type: 2, style: 1, label: 'ok', custom_id: 'ok' }] }] },
      },
      COMMAND,
    );
    accepted({ type: 4, data: { attachments: [{ id: '0', filename: 'a.txt' }] } }, COMMAND);
    accepted(
      { type: 4, data: { poll: { question: { text: 'q' }, answers: [{ poll_media: { text: 'a' } }] } } },
      COMMAND,
    );
  });

  it('a deferred message with and without data', () => {
    assert.deepEqual(accepted({ type: 5 }, COMMAND), { type: 5 });
    assert.deepEqual(accepted({ type: 5, data: { flags: 64 } }, COMMAND), { type: 5, data: { flags: 64 } });
    assert.deepEqual(accepted({ type: 5, data: {} }, COMMAND), { type: 5, data: {} });
  });

  it("suggestions of the focused option's type, none at all, and exactly 25", () => {
    assert.deepEqual(accepted({ type: 8, data: { choices: [] } }, STRING_FOCUS), { type: 8, data: { choices: [] } });
    assert.equal(
      (accepted({ type: 8, data: { choices: choices(25) } }, STRING_FOCUS).data?.choices as unknown[]).length,
      25,
    );
    const integers = accepted(
      { type: 8, data: { choices: [choice('one', 1), { name: 'two', value: 2, name_localizations: { fr: 'deux' } }] } },
      INTEGER_FOCUS,
    );
    // Localization maps have no prototype (client keys): compared as they leave on the wire.
    assert.deepEqual(JSON.parse(JSON.stringify(integers.data)), {
      choices: [
        { name: 'one', name_localizations: null, value: 1 },
        { name: 'two', name_localizations: { fr: 'deux' }, value: 2 },
      ],
    });
    accepted({ type: 8, data: { choices: [choice('half', 0.5)] } }, NUMBER_FOCUS);
  });

  it('suggestions are checked as strings when the focused option is unknown', () => {
    accepted({ type: 8, data: { choices: [choice('a', 'a')] } }, autocomplete(null));
  });

  it('a modal', () => {
    assert.deepEqual(accepted({ type: 9, data: modal() }, COMMAND), { type: 9, data: modal() });
  });

  it('LAUNCH_ACTIVITY from an app with Activities, without data', () => {
    assert.deepEqual(accepted({ type: 12 }, COMMAND_WITH_ACTIVITIES), { type: 12 });
  });
});

interface MessageCase {
  name: string;
  body: unknown;
  options?: MessageDataOptions;
  issues: Expected;
}

const embed = (extra: Record<string, unknown>) => ({ title: 't', ...extra });

const REFUSED_MESSAGES: MessageCase[] = [
  { name: 'a body that is not an object', body: 'hi', issues: [[[], DICT_TYPE_CONVERT]] },
  { name: 'content that is not a string', body: { content: 5 }, issues: [[['content'], STRING_TYPE_CONVERT]] },
  {
    name: 'content above 2000 characters',
    body: { content: '😀'.repeat(2001) },
    issues: [[['content'], BASE_TYPE_MAX_LENGTH]],
  },
  {
    name: 'more than 10 embeds',
    body: { embeds: Array.from({ length: 11 }, () => embed({})) },
    issues: [[['embeds'], BASE_TYPE_MAX_LENGTH]],
  },
  { name: 'embeds that are not a list', body: { embeds: embed({}) }, issues: [[['embeds'], LIST_TYPE_CONVERT]] },
  { name: 'an embed that is not an object', body: { embeds: ['x'] }, issues: [[['embeds', 0], DICT_TYPE_CONVERT]] },
  {
    name: 'an embed title above 256',
    body: { embeds: [embed({ title: 't'.repeat(257) })] },
    issues: [[['embeds', 0, 'title'], BASE_TYPE_MAX_LENGTH]],
  },
  {
    name: 'an embed description above 4096',
    body: { embeds: [embed({ description: 'd'.repeat(4097) })] },
    issues: [[['embeds', 0, 'description'], BASE_TYPE_MAX_LENGTH]],
  },
  {
    name: 'an embed with 26 fields',
    body: { embeds: [embed({ fields: Array.from({ length: 26 }, () => ({ name: 'n', value: 'v' })) })] },
    issues: [[['embeds', 0, 'fields'], BASE_TYPE_MAX_LENGTH]],
  },
  {
    name: 'an embed field without a name',
    body: { embeds: [embed({ fields: [{ value: 'v' }] })] },
    issues: [[['embeds', 0, 'fields', 0, 'name'], BASE_TYPE_REQUIRED]],
  },
  {
    name: 'an embed field value above 1024',
    body: { embeds: [embed({ fields: [{ name: 'n', value: 'v'.repeat(1025) }] })] },
    issues: [[['embeds', 0, 'fields', 0, 'value'], BASE_TYPE_MAX_LENGTH]],
  },
  {
    name: 'an embed footer without text',
    body: { embeds: [embed({ footer: {} })] },
    issues: [[['embeds', 0, 'footer', 'text'], BASE_TYPE_REQUIRED]],
  },
  {
    name: 'an embed author name above 256',
    body: { embeds: [embed({ author: { name: 'a'.repeat(257) } })] },
    issues: [[['embeds', 0, 'author', 'name'], BASE_TYPE_MAX_LENGTH]],
  },
  {
    name: 'embeds above 6000 characters together',
    body: { embeds: [embed({ description: 'd'.repeat(4000) }), embed({ description: 'd'.repeat(4000) })] },
    issues: [[['embeds'], codes.MAX_EMBED_SIZE_EXCEEDED]],
  },
  { name: 'negative flags', body: { content: 'x', flags: -1 }, issues: [[['flags'], codes.MESSAGE_FLAGS_INVALID]] },
  {
    name: 'flags beyond 32 bits',
    body: { content: 'x', flags: 2 ** 38 },
    issues: [[['flags'], codes.MESSAGE_FLAGS_INVALID]],
  },
  {
    name: 'content with IS_COMPONENTS_V2 (test/components-v2-core.test.ts has the rest)',
    body: { content: 'x', flags: 1 << 15 },
    issues: [[['content'], codes.MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2]],
  },
  {
    name: 'flags that are not an integer',
    body: { content: 'x', flags: 1.5 },
    issues: [[['flags'], NUMBER_TYPE_COERCE]],
  },
  {
    name: 'SUPPRESS_EMBEDS on a deferred response',
    body: { flags: 4 },
    options: { forDeferred: true },
    issues: [[['flags'], codes.MESSAGE_FLAGS_INVALID]],
  },
  { name: 'tts that is not a boolean', body: { content: 'x', tts: 'yes' }, issues: [[['tts'], BOOLEAN_TYPE_CONVERT]] },
  {
    name: 'allowed_mentions that is not an object',
    body: { content: 'x', allowed_mentions: [] },
    issues: [[['allowed_mentions'], DICT_TYPE_CONVERT]],
  },
  {
    name: 'an unknown mention kind',
    body: { content: 'x', allowed_mentions: { parse: ['channels'] } },
    issues: [[['allowed_mentions', 'parse', 0], BASE_TYPE_CHOICES]],
  },
  {
    name: 'users both parsed and listed',
    body: { content: 'x', allowed_mentions: { parse: ['users'], users: [BOB] } },
    issues: [[['allowed_mentions', 'users'], codes.MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE]],
  },
  {
    name: 'roles both parsed and listed',
    body: { content: 'x', allowed_mentions: { parse: ['roles'], roles: [BOB] } },
    issues: [[['allowed_mentions', 'roles'], codes.MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE]],
  },
  {
    name: 'a mentioned user id that is not a snowflake',
    body: { content: 'x', allowed_mentions: { users: ['bob'] } },
    issues: [[['allowed_mentions', 'users', 0], NUMBER_TYPE_COERCE]],
  },
  {
    name: 'more than 100 mentioned users',
    body: { content: 'x', allowed_mentions: { users: Array.from({ length: 101 }, () => BOB) } },
    issues: [[['allowed_mentions', 'users'], BASE_TYPE_MAX_LENGTH]],
  },
  {
    name: 'replied_user that is not a boolean',
    body: { content: 'x', allowed_mentions: { replied_user: 1 } },
    issues: [[['allowed_mentions', 'replied_user'], BOOLEAN_TYPE_CONVERT]],
  },
  {
    name: 'more than 5 component rows',
    body: { components: Array.from({ length: 6 }, () => ({ type: 1 })) },
    issues: [[['components'], BASE_TYPE_MAX_LENGTH]],
  },
  {
    name: 'a component that is not an object',
    body: { components: [1] },
    issues: [[['components', 0], DICT_TYPE_CONVERT]],
  },
  {
    name: 'more than 10 attachments',
    body: { attachments: Array.from({ length: 11 }, () => ({ id: '0' })) },
    issues: [[['attachments'], BASE_TYPE_MAX_LENGTH]],
  },
  { name: 'a poll that is not an object', body: { poll: 'yes' }, issues: [[['poll'], DICT_TYPE_CONVERT]] },
  { name: 'an empty message', body: {}, issues: [[[], codes.MESSAGE_EMPTY]] },
  { name: 'a message with only tts and flags', body: { tts: true, flags: 64 }, issues: [[[], codes.MESSAGE_EMPTY]] },
  { name: 'a message with nulls only', body: { content: null, embeds: null }, issues: [[[], codes.MESSAGE_EMPTY]] },
  {
    name: 'a message with empty lists only',
    body: { content: '', embeds: [], components: [], attachments: [] },
    issues: [[[], codes.MESSAGE_EMPTY]],
  },
  {
    name: 'an edit with content above 2000',
    body: { content: 'x'.repeat(2001) },
    options: { partial: true },
    issues: [[['content'], BASE_TYPE_MAX_LENGTH]],
  },
];

describe('checkMessageData refuses', () => {
  for (const testCase of REFUSED_MESSAGES) {
    it(testCase.name, () => {
      const result = checkMessageData(testCase.body, testCase.options ?? {});
      assert.equal(result.ok, false);
      assert.deepEqual(pairs(result), testCase.issues);
    });
  }

  it('an empty message only when nothing else is wrong', () => {
    assert.deepEqual(pairs(checkMessageData({ content: 5 }, {})), [[['content'], STRING_TYPE_CONVERT]]);
  });
});

describe('checkMessageData accepts', () => {
  function accepted(body: unknown, options: MessageDataOptions = {}) {
    const result = checkMessageData(body, options);
    if (!result.ok) assert.fail(JSON.stringify(result.issues));
    return result.value;
  }

  it('content of exactly 2000 characters, counted in code points', () => {
    accepted({ content: '😀'.repeat(2000) });
  });

  it('10 embeds at their limits, 25 fields, 5 rows of 5 buttons, 10 attachments', () => {
    accepted({
      embeds: Array.from({ length: 10 }, () => ({ title: 't'.repeat(256) })),
      components: Array.from({ length: 5 }, (_, row) => ({
        type: 1,
        components: Array.from({ length: 5 }, (_, column) => ({ type: 2, style: 1, custom_id: `b${row}.${column}` })),
      })),
      attachments: Array.from({ length: 10 }, (_, id) => ({ id: String(id) })),
    });
    accepted({
      embeds: [
        {
          description: 'd'.repeat(4096),
          fields: Array.from({ length: 25 }, () => ({ name: 'n', value: 'v', inline: true })),
        },
      ],
    });
  });

  it('allowed_mentions in both forms', () => {
    accepted({ content: 'hi <@1>', allowed_mentions: { parse: [] } });
    accepted({ content: 'hi', allowed_mentions: { parse: ['everyone', 'roles'], users: [BOB], replied_user: false } });
  });

  it('null means omitted on a create, and unknown fields are dropped', () => {
    assert.deepEqual(accepted({ content: 'hi', embeds: null, username: 'x', avatar_url: 'y' }), { content: 'hi' });
  });

  it('an edit: everything optional, empty allowed, null kept to clear', () => {
    assert.deepEqual(accepted({}, { partial: true }), {});
    assert.deepEqual(accepted({ content: null, embeds: [] }, { partial: true }), { content: null, embeds: [] });
    assert.deepEqual(accepted({ content: '' }, { partial: true }), { content: '' });
    assert.deepEqual(accepted({ flags: 4 }, { partial: true }), { flags: 4 });
  });

  it('a deferred response: nothing to show yet, EPHEMERAL allowed', () => {
    assert.deepEqual(accepted({}, { forDeferred: true }), {});
    assert.deepEqual(accepted({ flags: 64 }, { forDeferred: true }), { flags: 64 });
    assert.deepEqual(accepted({ flags: 0 }, { forDeferred: true }), { flags: 0 });
  });
});

describe('an empty message is a JSON error, not a form error', () => {
  it('is recognized on its own and maps to 50006', () => {
    const result = checkMessageData({}, {});
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(isEmptyMessageFailure(result.issues), true);
    assert.deepEqual(apiError('CannotSendEmptyMessage').toBody(), {
      message: 'Cannot send an empty message',
      code: 50006,
    });
    assert.equal(apiError('CannotSendEmptyMessage').status, 400);
  });

  it('is not confused with other failures', () => {
    const result = checkMessageData({ content: 5 }, {});
    assert.equal(!result.ok && isEmptyMessageFailure(result.issues), false);
  });

  it('a callback without data is an empty message too', () => {
    const result = checkCallback({ type: 4 }, COMMAND);
    assert.equal(!result.ok && isEmptyMessageFailure(result.issues), true);
  });
});
