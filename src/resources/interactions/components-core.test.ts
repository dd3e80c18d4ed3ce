/**
 * The pure parts of clicks and modal submissions: reading the user's bodies, checking a click
 * against a component tree (components v2 nesting included), checking a submission against the
 * modal, the components as stored (ids, select defaults), and which answers 6 and 7 may give.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import * as codes from '../../core/io/codes.js';
import type { IssuePath } from '../../core/io/issue.js';
import type { Result } from '../../core/io/result.js';
import { checkClick, type ClickData } from './rules/component-click.js';
import { findComponent, normalizeComponents } from '../messages/rules/component-tree.js';
import { checkModalSubmit } from './rules/modal-submit.js';
import { checkCallback } from './rules/responses.js';
import { readComponentRequest, readModalSubmitRequest } from './rules/component-request.js';
import { ALICE, CATEGORY, GENERAL, guildTarget, MODERATOR_ROLE, NOBODY } from '../../../test/interactions-fixtures.js';

type Pairs = [IssuePath, string][];

function pairs<T>(result: Result<T>): Pairs {
  return result.ok ? [] : result.issues.map((found) => [found.path, found.code]);
}

/** A components v2 tree: a container holding a section whose accessory is a button, and a row of selects. */
const TREE: unknown[] = [
  {
    type: 17,
    components: [
      {
        type: 9,
        components: [{ type: 10, content: 'Hello' }],
        accessory: { type: 2, style: 1, custom_id: 'deep', label: 'Deep' },
      },
      { type: 1, components: [{ type: 2, style: 5, url: 'https://example.com', custom_id: 'link' }] },
      { type: 1, components: [{ type: 2, style: 6, sku_id: '1', custom_id: 'premium' }] },
    ],
  },
  {
    type: 1,
    components: [
      {
        type: 3,
        custom_id: 'one',
        options: [
          { label: 'A', value: 'a' },
          { label: 'B', value: 'b' },
        ],
      },
    ],
  },
  { type: 1, components: [{ type: 7, custom_id: 'mention', max_values: 3 }] },
  { type: 1, components: [{ type: 8, custom_id: 'where', channel_types: [4] }] },
  { type: 10, content: 'text', custom_id: 'static' },
];

const click = (custom_id: string, component_type: number, values: string[] | null = null): ClickData => ({
  custom_id,
  component_type,
  values,
});

describe('clicks against a component tree', () => {
  it('finds a component nested in a container, a section and its accessory', () => {
    assert.equal(findComponent(TREE, 'deep')?.label, 'Deep');
    const result = checkClick(TREE, click('deep', 2), guildTarget());
    assert.ok(result.ok);
    assert.equal(result.value.values, undefined, 'a button sends no values');
  });

  it('refuses what sends no interaction, and names the field', () => {
    const cases: [ClickData, Pairs][] = [
      [click('link', 2), [[['data', 'custom_id'], codes.INTERACTION_COMPONENT_NOT_INTERACTIVE]]],
      [click('premium', 2), [[['data', 'custom_id'], codes.INTERACTION_COMPONENT_NOT_INTERACTIVE]]],
      [click('static', 10), [[['data', 'custom_id'], codes.INTERACTION_COMPONENT_NOT_INTERACTIVE]]],
      [click('missing', 2), [[['data', 'custom_id'], codes.INTERACTION_COMPONENT_UNKNOWN]]],
      [click('one', 3), [[['data', 'values'], codes.BASE_TYPE_REQUIRED]]],
      [click('one', 3, []), [[['data', 'values'], codes.BASE_TYPE_BAD_LENGTH]]],
      [click('one', 3, ['a', 'b']), [[['data', 'values'], codes.BASE_TYPE_BAD_LENGTH]]],
      [click('mention', 7, [NOBODY]), [[['data', 'values', 0], codes.INTERACTION_UNKNOWN_MENTIONABLE]]],
      [click('mention', 7, ['not-an-id']), [[['data', 'values', 0], codes.NUMBER_TYPE_COERCE]]],
      [click('where', 8, [GENERAL]), [[['data', 'values', 0], codes.INTERACTION_OPTION_CHANNEL_TYPE_INVALID]]],
    ];
    for (const [data, expected] of cases) {
      assert.deepEqual(pairs(checkClick(TREE, data, guildTarget())), expected, JSON.stringify(data));
    }
  });

  it('resolves the ids of mentionable and channel selects', () => {
    const mention = checkClick(TREE, click('mention', 7, [ALICE, MODERATOR_ROLE]), guildTarget());
    assert.ok(mention.ok);
    assert.deepEqual(mention.value.referenced.users, [ALICE]);
    assert.deepEqual(mention.value.referenced.roles, [MODERATOR_ROLE]);
    const where = checkClick(TREE, click('where', 8, [CATEGORY]), guildTarget());
    assert.ok(where.ok);
    assert.deepEqual(where.value.referenced.channels, [CATEGORY]);
  });
});

describe('the components as stored', () => {
  it('every component gets an id not taken by the app; selects get min and max values', () => {
    const tree = [
      {
        type: 1,
        components: [
          { type: 2, style: 1, custom_id: 'a', id: 2 },
          { type: 3, custom_id: 's', options: [] },
        ],
      },
    ];
    const before = JSON.stringify(tree);
    const stored = normalizeComponents(tree);
    assert.equal(JSON.stringify(tree), before, "the app's tree is not changed");
    assert.deepEqual(stored, [
      {
        type: 1,
        id: 1,
        components: [
          { type: 2, style: 1, custom_id: 'a', id: 2 },
          { type: 3, custom_id: 's', options: [], id: 3, min_values: 1, max_values: 1 },
        ],
      },
    ]);
  });
});

describe('modal submissions against the modal', () => {
  const LABELS = [
    { type: 10, id: 5, content: 'Tell us' },
    { type: 18, id: 1, label: 'Name', component: { type: 4, id: 2, custom_id: 'name', style: 1, min_length: 2 } },
    { type: 18, id: 3, label: 'Note', component: { type: 4, id: 4, custom_id: 'note', style: 2, required: false } },
  ];
  const field = (custom_id: string, value: string, index: number) => ({
    custom_id,
    value,
    path: ['data', 'components', index, 'component'],
  });

  it('delivers the modal layout (labels) with the values', () => {
    const result = checkModalSubmit(LABELS, [field('name', 'Ann', 0)]);
    assert.ok(result.ok);
    assert.deepEqual(result.value, [
      { type: 10, id: 5 },
      { type: 18, id: 1, component: { type: 4, id: 2, custom_id: 'name', value: 'Ann' } },
      { type: 18, id: 3, component: { type: 4, id: 4, custom_id: 'note', value: '' } },
    ]);
  });

  it('refuses a short value, a field given twice, and a missing required input', () => {
    assert.deepEqual(pairs(checkModalSubmit(LABELS, [field('name', 'A', 0)])), [
      [['data', 'components', 0, 'component', 'value'], codes.BASE_TYPE_BAD_LENGTH],
    ]);
    assert.deepEqual(pairs(checkModalSubmit(LABELS, [field('name', 'Ann', 0), field('name', 'Bob', 1)])), [
      [['data', 'components', 1, 'component', 'custom_id'], codes.INTERACTION_MODAL_FIELD_UNKNOWN],
    ]);
    assert.deepEqual(pairs(checkModalSubmit(LABELS, [field('note', 'x', 0)])), [
      [['data', 'components'], codes.INTERACTION_MODAL_FIELD_REQUIRED],
    ]);
  });
});

describe('reading the bodies', () => {
  it('a click needs message_id, data.custom_id and data.component_type', () => {
    assert.deepEqual(pairs(readComponentRequest({ type: 3, channel_id: GENERAL, data: { values: 'x' } })), [
      [['message_id'], codes.BASE_TYPE_REQUIRED],
      [['data', 'custom_id'], codes.BASE_TYPE_REQUIRED],
      [['data', 'component_type'], codes.BASE_TYPE_REQUIRED],
      [['data', 'values'], codes.LIST_TYPE_CONVERT],
    ]);
    const long = readComponentRequest({
      type: 3,
      channel_id: GENERAL,
      message_id: GENERAL,
      data: { custom_id: 'x'.repeat(101), component_type: 2 },
    });
    assert.deepEqual(pairs(long), [[['data', 'custom_id'], codes.BASE_TYPE_BAD_LENGTH]]);
  });

  it('a submission reads action rows, labels and bare inputs, with their paths', () => {
    const read = readModalSubmitRequest({
      type: 5,
      channel_id: GENERAL,
      data: {
        custom_id: 'm',
        components: [
          { type: 1, components: [{ type: 4, custom_id: 'a', value: '1' }] },
          { type: 18, component: { type: 4, custom_id: 'b', value: '2' } },
          { type: 4, custom_id: 'c', value: '3' },
        ],
      },
    });
    assert.ok(read.ok);
    assert.deepEqual(read.value.data.fields, [
      { custom_id: 'a', value: '1', path: ['data', 'components', 0, 'components', 0] },
      { custom_id: 'b', value: '2', path: ['data', 'components', 1, 'component'] },
      { custom_id: 'c', value: '3', path: ['data', 'components', 2] },
    ]);
    const bad = readModalSubmitRequest({
      type: 5,
      channel_id: GENERAL,
      data: { custom_id: 'm', components: [{ type: 4, custom_id: 'a', value: 'x'.repeat(4001) }] },
    });
    assert.deepEqual(pairs(bad), [[['data', 'components', 0, 'value'], codes.BASE_TYPE_MAX_LENGTH]]);
  });
});

describe('which answers update the message', () => {
  const ctx = (interactionType: 2 | 3 | 5, hasMessage: boolean) => ({
    interactionType,
    hasMessage,
    appHasActivities: false,
    focusedOption: null,
  });
  const typeOf = (result: Result<unknown>) => pairs(result).map(([, code]) => code);

  it('6 and 7 answer a click and a submission of a modal opened by one, never a command', () => {
    assert.ok(checkCallback({ type: 6 }, ctx(3, true)).ok);
    assert.ok(checkCallback({ type: 7, data: { content: 'x' } }, ctx(3, true)).ok);
    assert.ok(checkCallback({ type: 7 }, ctx(5, true)).ok, 'an update may leave the data out');
    assert.deepEqual(typeOf(checkCallback({ type: 7 }, ctx(5, false))), [codes.INTERACTION_CALLBACK_TYPE_INVALID]);
    assert.deepEqual(typeOf(checkCallback({ type: 6 }, ctx(2, false))), [codes.INTERACTION_CALLBACK_TYPE_INVALID]);
    const input = { type: 4, custom_id: 'topic', style: 1, label: 'Topic' };
    const modal = { type: 9, data: { custom_id: 'm', title: 't', components: [{ type: 1, components: [input] }] } };
    assert.deepEqual(typeOf(checkCallback(modal, ctx(5, true))), [codes.INTERACTION_CALLBACK_TYPE_INVALID]);
    assert.ok(checkCallback(modal, ctx(3, true)).ok, 'a click may open a modal');
  });
});

describe('never throws on arbitrary input', () => {
  const RUNS = 300;
  /** Component-like trees: the shapes the search walks, with any value in any field. */
  const component = fc.letrec((tie) => ({
    node: fc.record(
      {
        type: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.jsonValue()),
        custom_id: fc.oneof(fc.constantFrom('a', 'b'), fc.jsonValue()),
        disabled: fc.jsonValue(),
        style: fc.oneof(fc.integer({ min: 0, max: 7 }), fc.jsonValue()),
        min_values: fc.jsonValue(),
        max_values: fc.jsonValue(),
        options: fc.jsonValue(),
        components: fc.oneof({ depthSize: 'small' }, fc.array(tie('node'), { maxLength: 3 }), fc.jsonValue()),
        component: fc.oneof({ depthSize: 'small' }, tie('node'), fc.jsonValue()),
        accessory: fc.oneof({ depthSize: 'small' }, tie('node'), fc.jsonValue()),
      },
      { requiredKeys: [] },
    ),
  })).node;

  it('checkClick, checkModalSubmit, normalizeComponents and the readers', () => {
    fc.assert(
      fc.property(
        fc.array(component, { maxLength: 4 }),
        fc.constantFrom('a', 'b'),
        fc.integer({ min: 0, max: 20 }),
        fc.option(fc.array(fc.string(), { maxLength: 4 }), { nil: null }),
        (tree, customId, type, values) => {
          checkClick(tree, { custom_id: customId, component_type: type, values }, guildTarget());
          checkModalSubmit(tree, [{ custom_id: customId, value: 'x', path: [] }]);
          normalizeComponents(tree);
        },
      ),
      { numRuns: RUNS },
    );
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('type', 'channel_id', 'message_id', 'data', 'nonce'), fc.jsonValue()),
        (body) => {
          readComponentRequest(body);
          readModalSubmitRequest(body);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
