/**
 * The message rules as pure functions (`checkMessageData`, `checkCallback` for modals): each rule
 * of components and embeds refused at its path with its code, what v10 accepts accepted, and
 * properties over generated messages (a valid one passes; breaking one rule is reported there and
 * only there; no input makes a reader throw).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import * as codes from '../../core/io/codes.js';
import type { IssuePath } from '../../core/io/issue.js';
import { checkCallback, checkMessageData, type ResponseContext } from '../interactions/rules/responses.js';
import { isUnicodeEmoji } from './rules/component-emoji.js';
import { isIsoTimestamp } from './rules/embeds.js';
import { urlParts } from './rules/urls.js';
import { validComponents, validEmbed } from '../../../test/helpers/message-arbitraries.js';
import type { Json } from '../../../test/helpers/json.js';

type Pairs = [IssuePath, string][];

function pairs(result: { ok: true } | { ok: false; issues: readonly { path: IssuePath; code: string }[] }): Pairs {
  return result.ok ? [] : result.issues.map((found) => [found.path, found.code]);
}

const row = (...components: Json[]) => ({ type: 1, components });
const button = (customId: string, extra: Json = {}) => ({
  type: 2,
  style: 1,
  label: 'Go',
  custom_id: customId,
  ...extra,
});
const link = (url: string, extra: Json = {}) => ({ type: 2, style: 5, label: 'Docs', url, ...extra });
const select = (extra: Json = {}) => ({
  type: 3,
  custom_id: 'pick',
  options: [
    { label: 'Red', value: 'red' },
    { label: 'Blue', value: 'blue' },
  ],
  ...extra,
});
const at = (...path: (string | number)[]) => ['components', ...path];
const embedAt = (...path: (string | number)[]) => ['embeds', 0, ...path];

interface Case {
  name: string;
  body: Json;
  issues: Pairs;
}

const COMPONENT_REFUSALS: Case[] = [
  {
    name: 'a non-link button without custom_id',
    body: { components: [row({ type: 2, style: 1, label: 'x' })] },
    issues: [[at(0, 'components', 0, 'custom_id'), codes.BUTTON_COMPONENT_CUSTOM_ID_REQUIRED]],
  },
  {
    name: 'a button with a null custom_id',
    body: { components: [row({ type: 2, style: 4, label: 'x', custom_id: null })] },
    issues: [[at(0, 'components', 0, 'custom_id'), codes.BUTTON_COMPONENT_CUSTOM_ID_REQUIRED]],
  },
  {
    name: 'a custom_id of 101 characters and an empty one',
    body: { components: [row(button('x'.repeat(101)), button(''))] },
    issues: [
      [at(0, 'components', 0, 'custom_id'), codes.BASE_TYPE_BAD_LENGTH],
      [at(0, 'components', 1, 'custom_id'), codes.BASE_TYPE_BAD_LENGTH],
    ],
  },
  {
    name: 'two buttons of one message with the same custom_id, in different rows',
    body: { components: [row(button('same')), row(button('other'), button('same', { disabled: true }))] },
    issues: [[at(1, 'components', 1, 'custom_id'), codes.COMPONENT_CUSTOM_ID_DUPLICATED]],
  },
  {
    name: 'a select and a button sharing a custom_id',
    body: { components: [row(button('pick')), row(select())] },
    issues: [[at(1, 'components', 0, 'custom_id'), codes.COMPONENT_CUSTOM_ID_DUPLICATED]],
  },
  {
    name: 'a button style outside 1-6, and a missing style',
    body: { components: [row(button('a', { style: 7 }), { type: 2, custom_id: 'b' })] },
    issues: [
      [at(0, 'components', 0, 'style'), codes.BASE_TYPE_CHOICES],
      [at(0, 'components', 1, 'style'), codes.BASE_TYPE_REQUIRED],
    ],
  },
  {
    name: 'a label of 81 characters',
    body: { components: [row(button('a', { label: 'l'.repeat(81) }))] },
    issues: [[at(0, 'components', 0, 'label'), codes.BASE_TYPE_MAX_LENGTH]],
  },
  {
    name: 'a link button without url, and one with a custom_id',
    body: { components: [row({ type: 2, style: 5, label: 'x' }, link('https://example.com', { custom_id: 'l' }))] },
    issues: [
      [at(0, 'components', 0, 'url'), codes.BASE_TYPE_REQUIRED],
      [at(0, 'components', 1, 'custom_id'), codes.BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE],
    ],
  },
  {
    name: 'a custom-id button with a url',
    body: { components: [row(button('a', { url: 'https://example.com' }))] },
    issues: [[at(0, 'components', 0, 'url'), codes.BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE]],
  },
  {
    name: 'link buttons to javascript:, data: and a url of 513 characters',
    body: {
      components: [
        row(
          link('javascript:alert(1)'),
          link('data:text/html,<script>alert(1)</script>'),
          link(`https://example.com/${'a'.repeat(493)}`),
          link('not a url'),
        ),
      ],
    },
    issues: [
      [at(0, 'components', 0, 'url'), codes.URL_TYPE_INVALID_SCHEME],
      [at(0, 'components', 1, 'url'), codes.URL_TYPE_INVALID_SCHEME],
      [at(0, 'components', 2, 'url'), codes.BASE_TYPE_MAX_LENGTH],
      [at(0, 'components', 3, 'url'), codes.URL_TYPE_INVALID_URL],
    ],
  },
  {
    name: 'a premium button without sku_id, and one with a label and a custom_id',
    body: {
      components: [row({ type: 2, style: 6 }, { type: 2, style: 6, sku_id: '1', label: 'Buy', custom_id: 'p' })],
    },
    issues: [
      [at(0, 'components', 0, 'sku_id'), codes.BASE_TYPE_REQUIRED],
      [at(0, 'components', 1, 'custom_id'), codes.COMPONENT_FIELD_NOT_ALLOWED],
      [at(0, 'components', 1, 'label'), codes.COMPONENT_FIELD_NOT_ALLOWED],
    ],
  },
  {
    name: 'a sku_id on a link button',
    body: { components: [row(link('https://example.com', { sku_id: '1' }))] },
    issues: [[at(0, 'components', 0, 'sku_id'), codes.COMPONENT_FIELD_NOT_ALLOWED]],
  },
  {
    name: 'emojis: not an emoji, a custom id that is no snowflake, no name nor id, not an object',
    body: {
      components: [
        row(
          button('a', { emoji: { name: 'smile' } }),
          button('b', { emoji: { id: 'abc', name: 'x' } }),
          button('c', { emoji: {} }),
          button('d', { emoji: '👍' }),
        ),
      ],
    },
    issues: [
      [at(0, 'components', 0, 'emoji', 'name'), codes.COMPONENT_INVALID_EMOJI],
      [at(0, 'components', 1, 'emoji', 'id'), codes.NUMBER_TYPE_COERCE],
      [at(0, 'components', 2, 'emoji', 'name'), codes.BASE_TYPE_REQUIRED],
      [at(0, 'components', 3, 'emoji'), codes.DICT_TYPE_CONVERT],
    ],
  },
  {
    name: 'six buttons in a row, and an empty row',
    body: { components: [row(...Array.from({ length: 6 }, (_, i) => button(`b${i}`))), row()] },
    issues: [
      [at(0, 'components'), codes.BASE_TYPE_BAD_LENGTH],
      [at(1, 'components'), codes.BASE_TYPE_BAD_LENGTH],
    ],
  },
  {
    name: 'a select beside a button, and two selects in one row',
    body: {
      components: [row(button('a'), select()), row(select({ custom_id: 's1' }), { type: 5, custom_id: 's2' })],
    },
    issues: [
      [at(0, 'components', 1), codes.COMPONENT_LAYOUT_WIDTH_EXCEEDED],
      [at(1, 'components', 1), codes.COMPONENT_LAYOUT_WIDTH_EXCEEDED],
    ],
  },
  {
    name: 'a row without components',
    body: { components: [{ type: 1 }] },
    issues: [[at(0, 'components'), codes.BASE_TYPE_REQUIRED]],
  },
  {
    name: 'a button at the top level, and a v2 container without the flag',
    body: { components: [button('a'), { type: 17, components: [] }] },
    issues: [
      [at(0), codes.UNION_TYPE_CHOICES],
      [at(1), codes.UNION_TYPE_CHOICES],
    ],
  },
  {
    name: 'a row in a row, a text input in a message, an unknown type, no type',
    body: { components: [row(row(button('a')), { type: 4, custom_id: 't', style: 1 }, { type: 99 }, { label: 'x' })] },
    issues: [
      [at(0, 'components', 0), codes.UNION_TYPE_CHOICES],
      [at(0, 'components', 1), codes.UNION_TYPE_CHOICES],
      [at(0, 'components', 2), codes.UNION_TYPE_CHOICES],
      [at(0, 'components', 3, 'type'), codes.BASE_TYPE_REQUIRED],
    ],
  },
  {
    name: 'a component id that is negative, and one that is no integer',
    body: { components: [row(button('a', { id: -1 }), button('b', { id: '2' }))] },
    issues: [
      [at(0, 'components', 0, 'id'), codes.NUMBER_TYPE_MIN],
      [at(0, 'components', 1, 'id'), codes.NUMBER_TYPE_COERCE],
    ],
  },
  {
    name: 'a string select without custom_id and without options',
    body: { components: [row({ type: 3 })] },
    issues: [
      [at(0, 'components', 0, 'custom_id'), codes.BASE_TYPE_REQUIRED],
      [at(0, 'components', 0, 'options'), codes.BASE_TYPE_REQUIRED],
    ],
  },
  {
    name: 'a string select with no options, and one with 26',
    body: {
      components: [
        row(select({ options: [] })),
        row(
          select({
            custom_id: 'many',
            options: Array.from({ length: 26 }, (_, i) => ({ label: `o${i}`, value: `v${i}` })),
          }),
        ),
      ],
    },
    issues: [
      [at(0, 'components', 0, 'options'), codes.BASE_TYPE_BAD_LENGTH],
      [at(1, 'components', 0, 'options'), codes.BASE_TYPE_BAD_LENGTH],
    ],
  },
  {
    name: 'options: a missing label, an empty value, a long description, a repeated value',
    body: {
      components: [
        row(
          select({
            options: [
              { value: 'a' },
              { label: 'B', value: '' },
              { label: 'C', value: 'c', description: 'd'.repeat(101) },
              { label: 'D', value: 'c' },
            ],
          }),
        ),
      ],
    },
    issues: [
      [at(0, 'components', 0, 'options', 0, 'label'), codes.BASE_TYPE_REQUIRED],
      [at(0, 'components', 0, 'options', 1, 'value'), codes.BASE_TYPE_BAD_LENGTH],
      [at(0, 'components', 0, 'options', 2, 'description'), codes.BASE_TYPE_MAX_LENGTH],
      [at(0, 'components', 0, 'options', 3, 'value'), codes.SELECT_COMPONENT_OPTION_VALUE_DUPLICATED],
    ],
  },
  {
    name: 'min_values above 25, max_values 0, a placeholder of 151',
    body: { components: [row(select({ min_values: 26, max_values: 0, placeholder: 'p'.repeat(151) }))] },
    issues: [
      [at(0, 'components', 0, 'placeholder'), codes.BASE_TYPE_MAX_LENGTH],
      [at(0, 'components', 0, 'min_values'), codes.NUMBER_TYPE_MAX],
      [at(0, 'components', 0, 'max_values'), codes.NUMBER_TYPE_MIN],
    ],
  },
  {
    name: 'min_values above max_values',
    body: { components: [row(select({ min_values: 2, max_values: 1 }))] },
    issues: [[at(0, 'components', 0, 'min_values'), codes.NUMBER_TYPE_MAX]],
  },
  {
    name: 'max_values above the number of options',
    body: { components: [row(select({ max_values: 3 }))] },
    issues: [[at(0, 'components', 0, 'options'), codes.BASE_TYPE_MIN_LENGTH]],
  },
  {
    name: 'more default options than max_values',
    body: {
      components: [
        row(
          select({
            options: [
              { label: 'A', value: 'a', default: true },
              { label: 'B', value: 'b', default: true },
            ],
          }),
        ),
      ],
    },
    issues: [[at(0, 'components', 0, 'options'), codes.SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES]],
  },
  {
    name: 'id selects: a default of the wrong type, more defaults than max_values, a bad channel type',
    body: {
      components: [
        row({ type: 6, custom_id: 'role', default_values: [{ id: '1', type: 'user' }] }),
        row({
          type: 5,
          custom_id: 'who',
          default_values: [
            { id: '1', type: 'user' },
            { id: '2', type: 'user' },
          ],
        }),
        row({ type: 8, custom_id: 'where', channel_types: [0, 99, 0] }),
        row({
          type: 7,
          custom_id: 'any',
          max_values: 2,
          default_values: [{ id: 'x', type: 'role' }, { type: 'user' }],
        }),
      ],
    },
    issues: [
      [at(0, 'components', 0, 'default_values', 0, 'type'), codes.BASE_TYPE_CHOICES],
      [at(1, 'components', 0, 'default_values'), codes.SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES],
      [at(2, 'components', 0, 'channel_types', 1), codes.BASE_TYPE_CHOICES],
      [at(2, 'components', 0, 'channel_types', 2), codes.LIST_TYPE_DUPLICATE_VALUE],
      [at(3, 'components', 0, 'default_values', 0, 'id'), codes.NUMBER_TYPE_COERCE],
      [at(3, 'components', 0, 'default_values', 1, 'id'), codes.BASE_TYPE_REQUIRED],
    ],
  },
  {
    name: 'six rows: only the count is reported',
    body: { components: Array.from({ length: 6 }, () => ({ type: 1 })) },
    issues: [[['components'], codes.BASE_TYPE_MAX_LENGTH]],
  },
];

const EMBED_REFUSALS: Case[] = [
  {
    name: 'a javascript: link, a data: image, an ftp thumbnail',
    body: {
      embeds: [
        {
          title: 'x',
          url: 'javascript:alert(1)',
          image: { url: 'data:image/png;base64,AAAA' },
          thumbnail: { url: 'ftp://example.com/a.png' },
        },
      ],
    },
    issues: [
      [embedAt('url'), codes.URL_TYPE_INVALID_SCHEME],
      [embedAt('image', 'url'), codes.URL_TYPE_INVALID_SCHEME],
      [embedAt('thumbnail', 'url'), codes.URL_TYPE_INVALID_SCHEME],
    ],
  },
  {
    name: 'bad author and footer urls, an attachment:// link where only http(s) goes',
    body: {
      embeds: [
        {
          author: { name: 'a', url: 'attachment://a.png', icon_url: 'javascript:x' },
          footer: { text: 'f', icon_url: 'vbscript:x' },
          provider: { name: 'p', url: 'JaVaScRiPt:alert(1)' },
          video: { url: 'data:video/mp4,' },
        },
      ],
    },
    issues: [
      [embedAt('video', 'url'), codes.URL_TYPE_INVALID_SCHEME],
      [embedAt('provider', 'url'), codes.URL_TYPE_INVALID_SCHEME],
      [embedAt('footer', 'icon_url'), codes.URL_TYPE_INVALID_SCHEME],
      [embedAt('author', 'url'), codes.URL_TYPE_INVALID_SCHEME],
      [embedAt('author', 'icon_url'), codes.URL_TYPE_INVALID_SCHEME],
    ],
  },
  {
    name: 'urls hidden behind spaces and control characters, without a host, too long',
    body: {
      embeds: [
        {
          url: ' javascript:alert(1)',
          image: { url: 'java\tscript:alert(1)' },
          thumbnail: { url: 'https://' },
          author: { name: 'a', url: `https://example.com/${'a'.repeat(2029)}` },
        },
      ],
    },
    issues: [
      [embedAt('url'), codes.URL_TYPE_INVALID_URL],
      [embedAt('image', 'url'), codes.URL_TYPE_INVALID_URL],
      [embedAt('thumbnail', 'url'), codes.URL_TYPE_INVALID_URL],
      [embedAt('author', 'url'), codes.BASE_TYPE_MAX_LENGTH],
    ],
  },
  {
    name: 'a color above 0xFFFFFF, a negative one, a timestamp that is not ISO 8601',
    body: {
      embeds: [
        { color: 0x1000000, timestamp: 'yesterday' },
        { color: -1, timestamp: '2024-02-30T00:00:00Z' },
      ],
    },
    issues: [
      [['embeds', 0, 'timestamp'], codes.DATE_TIME_TYPE_PARSE],
      [['embeds', 0, 'color'], codes.NUMBER_TYPE_MAX],
      [['embeds', 1, 'timestamp'], codes.DATE_TIME_TYPE_PARSE],
      [['embeds', 1, 'color'], codes.NUMBER_TYPE_MIN],
    ],
  },
  {
    name: 'eleven embeds',
    body: { embeds: Array.from({ length: 11 }, () => ({ title: 't' })) },
    issues: [[['embeds'], codes.BASE_TYPE_MAX_LENGTH]],
  },
  {
    name: '26 fields, and a field whose inline is not a boolean',
    body: {
      embeds: [
        {
          fields: [
            ...Array.from({ length: 25 }, () => ({ name: 'n', value: 'v' })),
            { name: 'n', value: 'v', inline: 'yes' },
          ],
        },
      ],
    },
    issues: [
      [embedAt('fields'), codes.BASE_TYPE_MAX_LENGTH],
      [embedAt('fields', 25, 'inline'), codes.BOOLEAN_TYPE_CONVERT],
    ],
  },
  {
    name: 'a title of 257, a description of 4097, an author without name, a provider name of 257',
    body: {
      embeds: [
        { title: 't'.repeat(257), description: 'd'.repeat(4097), author: {}, provider: { name: 'p'.repeat(257) } },
      ],
    },
    issues: [
      [embedAt('provider', 'name'), codes.BASE_TYPE_MAX_LENGTH],
      [embedAt('title'), codes.BASE_TYPE_MAX_LENGTH],
      [embedAt('description'), codes.BASE_TYPE_MAX_LENGTH],
      [embedAt('author', 'name'), codes.BASE_TYPE_REQUIRED],
    ],
  },
  {
    name: '6001 characters over titles, descriptions, fields, footers and authors of three embeds',
    body: {
      embeds: [
        { title: 't'.repeat(256), description: 'd'.repeat(4000) },
        { fields: [{ name: 'n'.repeat(200), value: 'v'.repeat(1000) }], footer: { text: 'f'.repeat(100) } },
        { title: 't'.repeat(200), author: { name: 'a'.repeat(245) } },
      ],
    },
    issues: [[['embeds'], codes.MAX_EMBED_SIZE_EXCEEDED]],
  },
];

describe('message components are checked as v10 does', () => {
  for (const testCase of COMPONENT_REFUSALS) {
    it(testCase.name, () => {
      assert.deepEqual(pairs(checkMessageData(testCase.body, {})), testCase.issues);
      // The same rules for an edit, where every field is optional.
      assert.deepEqual(pairs(checkMessageData(testCase.body, { partial: true })), testCase.issues);
    });
  }

  it('accepts every kind of button, selects of every kind, and emojis in every form', () => {
    const body = {
      components: [
        row(
          button('a', { emoji: { name: '👍' } }),
          button('b', { style: 2, emoji: { name: '❤' }, label: undefined }),
          button('c', { style: 3, emoji: { id: '1345183757107209999', name: 'party', animated: true } }),
          link('https://example.com/docs', { emoji: { id: '1345183757107209998' } }),
          { type: 2, style: 6, sku_id: '1345183757107209997' },
        ),
        row(link('discord://-/channels/1/2'), link('http://example.com'), button('e', { style: 4, disabled: true })),
        row(
          select({
            min_values: 0,
            max_values: 2,
            placeholder: 'p'.repeat(150),
            options: [
              { label: 'Red', value: 'red', description: 'warm', default: true, emoji: { name: '🟥' } },
              { label: 'Blue', value: 'blue', default: false },
            ],
          }),
        ),
        row({
          type: 7,
          custom_id: 'any',
          max_values: 2,
          default_values: [
            { id: '1', type: 'user' },
            { id: '2', type: 'role' },
          ],
        }),
        row({ type: 8, custom_id: 'where', channel_types: [0, 5], default_values: [{ id: '3', type: 'channel' }] }),
      ],
    };
    assert.deepEqual(pairs(checkMessageData(body, {})), []);
  });

  it('a button with null fields it does not use is not refused for them', () => {
    const body = {
      components: [
        row(button('a', { url: null, sku_id: null, emoji: null }), link('https://x.example', { custom_id: null })),
      ],
    };
    assert.deepEqual(pairs(checkMessageData(body, {})), []);
  });
});

describe('embeds are checked as v10 does', () => {
  for (const testCase of EMBED_REFUSALS) {
    it(testCase.name, () => {
      assert.deepEqual(pairs(checkMessageData(testCase.body, {})), testCase.issues);
    });
  }

  it('accepts http(s) links, attachment:// images and icons, ISO times and RGB colors', () => {
    const body = {
      embeds: [
        {
          title: 'Report',
          url: 'https://example.com/report',
          color: 0xffffff,
          timestamp: '2024-02-29T12:30:00.000Z',
          image: { url: 'attachment://chart.png' },
          thumbnail: { url: 'http://example.com/t.png' },
          footer: { text: 'f', icon_url: 'attachment://icon.png' },
          author: { name: 'a', url: 'https://example.com', icon_url: 'https://example.com/a.png' },
          provider: { name: 'p', url: 'https://example.com' },
          fields: [{ name: 'n', value: 'v', inline: true }],
        },
        { timestamp: '2024-02-29T12:30:00+00:00', color: 0 },
        { timestamp: '2024-02-29' },
      ],
    };
    assert.deepEqual(pairs(checkMessageData(body, {})), []);
  });

  it('exactly 6000 characters together', () => {
    const body = { embeds: [{ description: 'd'.repeat(4000) }, { description: 'd'.repeat(2000) }] };
    assert.deepEqual(pairs(checkMessageData(body, {})), []);
  });
});

describe('modal components are checked as v10 does', () => {
  const CLICK: ResponseContext = { interactionType: 3, hasMessage: true, appHasActivities: false, focusedOption: null };
  const input = (customId: string, extra: Json = {}) => ({
    type: 4,
    custom_id: customId,
    style: 1,
    label: 'Topic',
    ...extra,
  });
  const modal = (components: Json[]) => ({ type: 9, data: { custom_id: 'form', title: 'Form', components } });
  const inModal = (...path: (string | number)[]) => ['data', 'components', ...path];

  it('accepts rows of one text input, labels around an input or a select, and text displays', () => {
    const body = modal([
      row(input('a', { style: 2, placeholder: 'p', value: 'v', required: false, min_length: 0, max_length: 4000 })),
      { type: 18, label: 'Name', description: 'Who you are', component: input('b', { label: undefined }) },
      { type: 18, label: 'Colour', component: select() },
      { type: 10, content: 'Thanks for writing.' },
    ]);
    assert.deepEqual(pairs(checkCallback(body, CLICK)), []);
  });

  it('refuses what a modal cannot hold, and inputs that break their rules', () => {
    const body = modal([
      row(button('b')),
      row(input('a'), input('c')),
      row({ type: 4, style: 3 }),
      { type: 18, component: input('a', { min_length: 10, max_length: 5 }) },
      { type: 10, content: '' },
    ]);
    assert.deepEqual(pairs(checkCallback(body, CLICK)), [
      [inModal(0, 'components', 0), codes.UNION_TYPE_CHOICES],
      [inModal(1, 'components', 1), codes.COMPONENT_LAYOUT_WIDTH_EXCEEDED],
      [inModal(2, 'components', 0, 'custom_id'), codes.BASE_TYPE_REQUIRED],
      [inModal(2, 'components', 0, 'style'), codes.BASE_TYPE_CHOICES],
      [inModal(3, 'label'), codes.BASE_TYPE_REQUIRED],
      [inModal(3, 'component', 'custom_id'), codes.COMPONENT_CUSTOM_ID_DUPLICATED],
      [inModal(3, 'component', 'min_length'), codes.NUMBER_TYPE_MAX],
      [inModal(4, 'content'), codes.BASE_TYPE_BAD_LENGTH],
    ]);
  });

  it('a label holds one input, never a button or a row', () => {
    const body = modal([
      { type: 18, label: 'A', component: button('x') },
      { type: 18, label: 'B', component: row(input('y')) },
      { type: 18, label: 'C' },
    ]);
    assert.deepEqual(pairs(checkCallback(body, CLICK)), [
      [inModal(0, 'component'), codes.UNION_TYPE_CHOICES],
      [inModal(1, 'component'), codes.UNION_TYPE_CHOICES],
      [inModal(2, 'component'), codes.BASE_TYPE_REQUIRED],
    ]);
  });

  it('names the types that may stand there, as v10 writes them', () => {
    const result = checkCallback({ type: 4, data: { components: [row(row())] } }, CLICK);
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(result.issues[0]!.message, 'Value of field "type" must be one of (2, 3, 5, 6, 7, 8).');
    const top = checkCallback({ type: 4, data: { components: [button('a')] } }, CLICK);
    assert.equal(top.ok ? '' : top.issues[0]!.message, 'Value of field "type" must be one of (1,).');
  });
});

describe('the pure helpers', () => {
  it('urlParts reads the scheme as a browser does', () => {
    assert.deepEqual(urlParts('HTTPS://Example.com/a'), { scheme: 'https', host: 'example.com' });
    assert.deepEqual(urlParts('attachment://a.png'), { scheme: 'attachment', host: 'a.png' });
    assert.deepEqual(urlParts('JavaScript:alert(1)'), { scheme: 'javascript', host: '' });
    assert.equal(urlParts('\u0000https://example.com'), undefined);
    assert.equal(urlParts('java\nscript:alert(1)'), undefined);
    assert.equal(urlParts('/relative'), undefined);
  });

  it('isUnicodeEmoji takes one emoji (sequences, flags, keycaps, tags), with or without its presentation selector', () => {
    for (const emoji of ['👍', '👍🏾', '❤️', '❤', '🇯🇵', '#️⃣', '👨‍👩‍👧‍👦', '👩🏽‍💻', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '©️'])
      assert.ok(isUnicodeEmoji(emoji), emoji);
    for (const text of ['', 'a', '1', '#', '👍👍', ':smile:', '⏻', '👍 ', '🇯', '\u200D👍', 'x\u20E3'])
      assert.ok(!isUnicodeEmoji(text), JSON.stringify(text));
  });

  it('isIsoTimestamp takes dates and times that exist', () => {
    for (const time of ['2024-02-29', '2024-02-29T23:59:59Z', '2024-02-29T23:59:59.123456+02:00', '2024-02-29 10:00'])
      assert.ok(isIsoTimestamp(time), time);
    for (const time of ['2023-02-29', '2024-13-01', '2024-01-01T24:00:00Z', '1709251200', 'Thu, 29 Feb 2024'])
      assert.ok(!isIsoTimestamp(time), time);
  });
});

describe('properties', () => {
  const RUNS = 200;
  const interactiveButtons = (components: Json[]): [number, number][] =>
    components.flatMap((r, i) =>
      (r.components as Json[]).flatMap((c, j) => (c.type === 2 && c.style !== 5 ? [[i, j] as [number, number]] : [])),
    );

  it('a message of valid components and embeds is accepted', () => {
    fc.assert(
      fc.property(validComponents, fc.array(validEmbed, { maxLength: 10 }), (components, embeds) => {
        assert.deepEqual(pairs(checkMessageData({ content: 'x', components, embeds }, {})), []);
      }),
      { numRuns: RUNS },
    );
  });

  it("removing one button's custom_id is refused there, and only there", () => {
    const withButton = validComponents.filter((components) => interactiveButtons(components).length > 0);
    fc.assert(
      fc.property(withButton, fc.nat(), (components, pick) => {
        const candidates = interactiveButtons(components);
        const [i, j] = candidates[pick % candidates.length]!;
        const broken = structuredClone(components);
        delete broken[i]!.components[j].custom_id;
        assert.deepEqual(pairs(checkMessageData({ components: broken }, {})), [
          [['components', i, 'components', j, 'custom_id'], codes.BUTTON_COMPONENT_CUSTOM_ID_REQUIRED],
        ]);
      }),
      { numRuns: RUNS },
    );
  });

  it('a custom_id used twice is refused at its second use', () => {
    const twoButtons = validComponents.filter((components) => interactiveButtons(components).length > 1);
    fc.assert(
      fc.property(twoButtons, fc.nat(), fc.nat(), (components, a, b) => {
        const candidates = interactiveButtons(components);
        const first = a % candidates.length;
        const second = (first + 1 + (b % (candidates.length - 1))) % candidates.length;
        const [[i1, j1], [i2, j2]] = [candidates[Math.min(first, second)]!, candidates[Math.max(first, second)]!];
        const broken = structuredClone(components);
        broken[i2]!.components[j2].custom_id = broken[i1]!.components[j1].custom_id;
        assert.deepEqual(pairs(checkMessageData({ components: broken }, {})), [
          [['components', i2, 'components', j2, 'custom_id'], codes.COMPONENT_CUSTOM_ID_DUPLICATED],
        ]);
      }),
      { numRuns: RUNS },
    );
  });

  it('an embed link or a link button of any scheme but http(s) is refused at its path', () => {
    const scheme = fc
      .stringMatching(/^[a-z][a-z0-9+.-]{0,10}$/)
      .filter((s) => !['http', 'https', 'discord'].includes(s));
    fc.assert(
      fc.property(scheme, (name) => {
        const url = `${name}://example.com/x`;
        const body = {
          embeds: [{ url, image: { url }, author: { name: 'a', icon_url: url } }],
          components: [row(link(url))],
        };
        const expected: Pairs = [
          [['embeds', 0, 'url'], codes.URL_TYPE_INVALID_SCHEME],
          [['embeds', 0, 'author', 'icon_url'], codes.URL_TYPE_INVALID_SCHEME],
          [['components', 0, 'components', 0, 'url'], codes.URL_TYPE_INVALID_SCHEME],
        ];
        // attachment:// is an image's scheme, not a link's.
        if (name !== 'attachment')
          expected.splice(1, 0, [['embeds', 0, 'image', 'url'], codes.URL_TYPE_INVALID_SCHEME]);
        const found = pairs(checkMessageData(body, {}));
        assert.deepEqual(
          found.sort((x, y) => x[0].join('.').localeCompare(y[0].join('.'))),
          expected.sort((x, y) => x[0].join('.').localeCompare(y[0].join('.'))),
        );
      }),
      { numRuns: RUNS },
    );
  });

  it('the 6000-character total: refused exactly when the texts add up to more', () => {
    const embed = fc.record({
      title: fc.nat({ max: 256 }),
      description: fc.nat({ max: 4096 }),
      footer: fc.nat({ max: 2048 }),
      author: fc.nat({ max: 256 }),
    });
    fc.assert(
      fc.property(fc.array(embed, { minLength: 1, maxLength: 4 }), (sizes) => {
        const embeds = sizes.map((s) => ({
          title: 't'.repeat(s.title),
          description: '😀'.repeat(s.description),
          footer: { text: 'f'.repeat(s.footer) },
          author: { name: 'a'.repeat(s.author) },
        }));
        const total = sizes.reduce((sum, s) => sum + s.title + s.description + s.footer + s.author, 0);
        const expected: Pairs = total > 6000 ? [[['embeds'], codes.MAX_EMBED_SIZE_EXCEEDED]] : [];
        assert.deepEqual(pairs(checkMessageData({ embeds }, {})), expected);
      }),
      { numRuns: 100 },
    );
  });

  it('never throws on arbitrary components, embeds and modals; every issue is under its field', () => {
    const anyTree = fc.array(
      fc.record(
        {
          type: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.jsonValue()),
          style: fc.oneof(fc.integer({ min: 0, max: 7 }), fc.jsonValue()),
          custom_id: fc.oneof(fc.constantFrom('a', 'b'), fc.jsonValue()),
          url: fc.oneof(fc.webUrl(), fc.string(), fc.jsonValue()),
          emoji: fc.jsonValue(),
          options: fc.jsonValue(),
          components: fc.jsonValue(),
          component: fc.jsonValue(),
        },
        { requiredKeys: [] },
      ),
      { maxLength: 6 },
    );
    fc.assert(
      fc.property(anyTree, fc.array(fc.jsonValue(), { maxLength: 3 }), (components, embeds) => {
        for (const found of pairs(checkMessageData({ components, embeds }, {}))) {
          if (found[1] === codes.MESSAGE_EMPTY) continue;
          assert.ok(['components', 'embeds'].includes(String(found[0][0])), JSON.stringify(found));
        }
        const modal = checkCallback(
          { type: 9, data: { custom_id: 'm', title: 't', components } },
          {
            interactionType: 2,
            appHasActivities: false,
            focusedOption: null,
          },
        );
        for (const found of pairs(modal)) assert.deepEqual(found[0].slice(0, 2), ['data', 'components']);
      }),
      { numRuns: 300 },
    );
  });
});
