/**
 * Components v2 rules (the IS_COMPONENTS_V2 flag), as every message body takes them: each rule
 * accepted and refused with its exact 50035 path, the message-level rules (legacy fields, the flag
 * kept once set, the totals), and `attachment://` media resolving to the message's files.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as codes from '../../core/io/codes.js';
import type { IssuePath } from '../../core/io/issue.js';
import { checkMessageData, type MessageDataOptions } from './rules/message-data.js';
import { editedMessageState } from './rules/components-v2.js';
import { mediaReferenceIssues, resolveComponentMedia } from '../attachments/rules/component-media.js';
import { checkCallback } from '../interactions/rules/responses.js';
import { normalizeComponents } from './rules/component-tree.js';

const V2 = 1 << 15;
type Pairs = [IssuePath, string][];

function issuesOf(body: unknown, options: MessageDataOptions = {}): Pairs {
  const result = checkMessageData(body, options);
  return result.ok ? [] : result.issues.map((found) => [found.path, found.code]);
}

const text = (content: string) => ({ type: 10, content });
const button = (custom_id: string) => ({ type: 2, style: 1, label: 'Go', custom_id });
const thumbnail = (url = 'https://example.com/a.png') => ({ type: 11, media: { url } });
const v2 = (...components: unknown[]) => ({ flags: V2, components });

/** A message using every kind of component v2, within every bound. */
const FULL = v2(
  {
    type: 17,
    accent_color: 0x5865f2,
    spoiler: false,
    components: [
      text('# Title'),
      { type: 9, components: [text('a'), text('b'), text('c')], accessory: button('deep') },
      {
        type: 9,
        components: [text('with a picture')],
        accessory: { ...thumbnail(), description: 'alt', spoiler: true },
      },
      {
        type: 12,
        items: [
          { media: { url: 'attachment://cat.png' }, description: 'a cat' },
          { media: { url: 'https://x.y/z.gif' } },
        ],
      },
      { type: 13, file: { url: 'attachment://notes.txt' }, spoiler: false },
      { type: 14, spacing: 2, divider: false },
      { type: 1, components: [button('row-one'), button('row-two')] },
      { type: 1, components: [{ type: 3, custom_id: 'pick', options: [{ label: 'A', value: 'a' }] }] },
    ],
  },
  text('outside'),
  { type: 14 },
  { type: 1, components: [button('top')] },
);

interface Case {
  name: string;
  body: unknown;
  options?: MessageDataOptions;
  issues: Pairs;
}

const C = ['components', 0] as const;
const CC = [...C, 'components'] as const;

const REFUSED: Case[] = [
  {
    name: 'v2 components without the flag',
    body: { components: [text('hi')] },
    issues: [[['components', 0], codes.UNION_TYPE_CHOICES]],
  },
  {
    name: 'content with the flag',
    body: { ...v2(text('hi')), content: 'legacy' },
    issues: [[['content'], codes.MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2]],
  },
  {
    name: 'embeds, poll and stickers with the flag',
    body: {
      ...v2(text('hi')),
      embeds: [{ title: 't' }],
      poll: { question: { text: 'q' }, answers: [{ poll_media: { text: 'a' } }] },
      sticker_ids: ['1'],
    },
    issues: [
      [['embeds'], codes.MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2],
      [['poll'], codes.MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2],
      [['sticker_ids'], codes.MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2],
    ],
  },
  {
    name: 'a thumbnail at the top level',
    body: v2(thumbnail()),
    issues: [[['components', 0], codes.UNION_TYPE_CHOICES]],
  },
  {
    name: 'a container in a container',
    body: v2({ type: 17, components: [{ type: 17, components: [text('x')] }] }),
    issues: [[[...CC, 0], codes.UNION_TYPE_CHOICES]],
  },
  {
    name: 'an empty container, and one without components',
    body: v2({ type: 17, components: [] }, { type: 17 }),
    issues: [
      [[...CC], codes.BASE_TYPE_BAD_LENGTH],
      [['components', 1, 'components'], codes.BASE_TYPE_REQUIRED],
    ],
  },
  {
    name: 'accent_color out of range',
    body: v2(
      { type: 17, accent_color: 0x1000000, components: [text('x')] },
      { type: 17, accent_color: -1, components: [text('y')] },
    ),
    issues: [
      [[...C, 'accent_color'], codes.NUMBER_TYPE_MAX],
      [['components', 1, 'accent_color'], codes.NUMBER_TYPE_MIN],
    ],
  },
  {
    name: 'a section with four text displays and no accessory',
    body: v2({ type: 9, components: [text('1'), text('2'), text('3'), text('4')] }),
    issues: [
      [[...CC], codes.BASE_TYPE_BAD_LENGTH],
      [[...C, 'accessory'], codes.BASE_TYPE_REQUIRED],
    ],
  },
  {
    name: 'a section holding a button, and a select as its accessory',
    body: v2({ type: 9, components: [button('b')], accessory: { type: 3, custom_id: 's', options: [] } }),
    issues: [
      [[...CC, 0], codes.UNION_TYPE_CHOICES],
      [[...C, 'accessory'], codes.UNION_TYPE_CHOICES],
    ],
  },
  {
    name: 'a section accessory button without a custom id',
    body: v2({ type: 9, components: [text('t')], accessory: { type: 2, style: 1, label: 'x' } }),
    issues: [[[...C, 'accessory', 'custom_id'], codes.BUTTON_COMPONENT_CUSTOM_ID_REQUIRED]],
  },
  {
    name: 'a custom id used in a container and in a section accessory',
    body: v2(
      { type: 17, components: [{ type: 1, components: [button('same')] }] },
      { type: 9, components: [text('t')], accessory: button('same') },
    ),
    issues: [[['components', 1, 'accessory', 'custom_id'], codes.COMPONENT_CUSTOM_ID_DUPLICATED]],
  },
  {
    name: 'an empty text display and one without content',
    body: v2(text(''), { type: 10 }),
    issues: [
      [[...C, 'content'], codes.BASE_TYPE_BAD_LENGTH],
      [['components', 1, 'content'], codes.BASE_TYPE_REQUIRED],
    ],
  },
  {
    name: 'a media gallery with no items and one with eleven',
    body: v2(
      { type: 12, items: [] },
      { type: 12, items: Array.from({ length: 11 }, () => ({ media: { url: 'https://a.b/c.png' } })) },
    ),
    issues: [
      [[...C, 'items'], codes.BASE_TYPE_BAD_LENGTH],
      [['components', 1, 'items'], codes.BASE_TYPE_BAD_LENGTH],
    ],
  },
  {
    name: 'gallery items without media, with a bad url and an empty description',
    body: v2({
      type: 12,
      items: [{}, { media: { url: 'javascript:alert(1)' } }, { media: { url: 'https://a.b/c.png' }, description: '' }],
    }),
    issues: [
      [[...C, 'items', 0, 'media'], codes.BASE_TYPE_REQUIRED],
      [[...C, 'items', 1, 'media', 'url'], codes.URL_TYPE_INVALID_SCHEME],
      [[...C, 'items', 2, 'description'], codes.BASE_TYPE_BAD_LENGTH],
    ],
  },
  {
    name: 'a thumbnail whose media has no url, and a description of 1025 characters',
    body: v2({ type: 9, components: [text('t')], accessory: { type: 11, media: {}, description: 'd'.repeat(1025) } }),
    issues: [
      [[...C, 'accessory', 'media', 'url'], codes.BASE_TYPE_REQUIRED],
      [[...C, 'accessory', 'description'], codes.BASE_TYPE_BAD_LENGTH],
    ],
  },
  {
    name: 'a file that is not an attachment, and one without a file',
    body: v2({ type: 13, file: { url: 'https://example.com/a.txt' } }, { type: 13, spoiler: 'yes' }),
    issues: [
      [[...C, 'file', 'url'], codes.URL_TYPE_INVALID_SCHEME],
      [['components', 1, 'file'], codes.BASE_TYPE_REQUIRED],
      [['components', 1, 'spoiler'], codes.BOOLEAN_TYPE_CONVERT],
    ],
  },
  {
    name: 'a separator with spacing 3 and a divider that is not a boolean',
    body: v2({ type: 14, spacing: 3, divider: 1 }),
    issues: [
      [[...C, 'spacing'], codes.BASE_TYPE_CHOICES],
      [[...C, 'divider'], codes.BOOLEAN_TYPE_CONVERT],
    ],
  },
  {
    name: 'an action row of six buttons in a container',
    body: v2({ type: 17, components: [{ type: 1, components: [1, 2, 3, 4, 5, 6].map((n) => button(`b${n}`)) }] }),
    issues: [[[...CC, 0, 'components'], codes.BASE_TYPE_BAD_LENGTH]],
  },
  {
    name: '41 components at the top level',
    body: v2(...Array.from({ length: 41 }, (_, n) => text(`t${n}`))),
    issues: [[['components'], codes.BASE_TYPE_MAX_LENGTH]],
  },
  {
    name: '41 components counting nested ones',
    body: v2(...Array.from({ length: 20 }, (_, n) => ({ type: 17, components: [text(`t${n}`)] })), text('last')),
    issues: [[['components'], codes.COMPONENTS_TOTAL_COUNT_EXCEEDED]],
  },
  {
    name: 'text displays holding 4001 characters together',
    body: v2(text('a'.repeat(2000)), { type: 17, components: [text('b'.repeat(2001))] }),
    issues: [[['components'], codes.TEXT_DISPLAYS_TOTAL_LENGTH_EXCEEDED]],
  },
  {
    name: 'an edit dropping the flag',
    body: { flags: 0, components: [text('x')] },
    options: { partial: true, editing: { componentsV2: true, legacyFields: [] } },
    issues: [[['flags'], codes.MESSAGE_FLAGS_INVALID]],
  },
  {
    name: 'an edit of a v2 message giving content without the flag',
    body: { content: 'legacy' },
    options: { partial: true, editing: { componentsV2: true, legacyFields: [] } },
    issues: [[['content'], codes.MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2]],
  },
  {
    name: 'an upgrade that leaves the old content',
    body: v2(text('now v2')),
    options: { partial: true, editing: editedMessageState({ flags: 0, content: 'old', embeds: [] }) },
    issues: [[['content'], codes.MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2]],
  },
];

describe('components v2: accepted', () => {
  it('every kind of component within its bounds', () => {
    assert.deepEqual(issuesOf(FULL), []);
  });

  it('40 components in all, and text displays of exactly 4000 characters together', () => {
    const forty = v2(
      ...Array.from({ length: 19 }, (_, n) => ({ type: 17, components: [text(`t${n}`)] })),
      text('a'),
      text('b'),
    );
    assert.deepEqual(issuesOf(forty), []);
    assert.deepEqual(issuesOf(v2(text('a'.repeat(2000)), { type: 17, components: [text('b'.repeat(2000))] })), []);
  });

  it('an edit of a v2 message without flags lays its components out as v2', () => {
    assert.deepEqual(
      issuesOf({ components: [text('x')] }, { partial: true, editing: { componentsV2: true, legacyFields: [] } }),
      [],
    );
  });

  it('an upgrade that clears the old content and embeds', () => {
    const editing = editedMessageState({ flags: 0, content: 'old', embeds: [{}] });
    assert.deepEqual(issuesOf({ ...v2(text('v2')), content: null, embeds: null }, { partial: true, editing }), []);
  });

  it('a 7 (UPDATE_MESSAGE) of a v2 message takes v2 components without the flag', () => {
    const ctx = { interactionType: 3 as const, hasMessage: true, appHasActivities: false, focusedOption: null };
    const body = { type: 7, data: { components: [{ type: 17, components: [text('updated')] }] } };
    const asLegacy = checkCallback(body, ctx);
    assert.equal(asLegacy.ok, false);
    assert.equal(checkCallback(body, { ...ctx, updating: { componentsV2: true, legacyFields: [] } }).ok, true);
  });
});

describe('components v2: refused', () => {
  for (const testCase of REFUSED) {
    it(testCase.name, () => {
      assert.deepEqual(issuesOf(testCase.body, testCase.options), testCase.issues);
    });
  }
});

describe('components v2: attachment:// media', () => {
  const attachments = [
    { id: '100', filename: 'cat.png', size: 10, content_type: 'image/png', width: 2, height: 3 },
    { id: '101', filename: 'notes.txt', size: 5, content_type: 'text/plain' },
  ];

  it('names files the message has, else refuses the url with its path', () => {
    assert.deepEqual(mediaReferenceIssues(FULL.components, attachments, ['components']), []);
    const found = mediaReferenceIssues(FULL.components, attachments.slice(0, 1), ['data', 'components']);
    assert.deepEqual(
      found.map((i) => [i.path, i.code, i.message]),
      [
        [
          ['data', 'components', 0, 'components', 4, 'file', 'url'],
          codes.UNFURLED_MEDIA_ITEM_REFERENCED_ATTACHMENT_NOT_FOUND,
          'The referenced attachment ("attachment://notes.txt") was not found',
        ],
      ],
    );
  });

  it('reads give the file URL, its type and size, and the file component its name', () => {
    const resolved = resolveComponentMedia(
      FULL.components as Record<string, unknown>[],
      attachments,
      (a, proxy) => `${proxy ? 'p' : 'u'}/${a.id}`,
    );
    const inner = (resolved[0] as { components: Record<string, unknown>[] }).components;
    assert.deepEqual((inner[3] as { items: { media: unknown }[] }).items[0]!.media, {
      url: 'u/100',
      proxy_url: 'p/100',
      attachment_id: '100',
      content_type: 'image/png',
      width: 2,
      height: 3,
    });
    assert.deepEqual((inner[3] as { items: { media: unknown }[] }).items[1]!.media, { url: 'https://x.y/z.gif' });
    assert.equal(inner[4]!.name, 'notes.txt');
    assert.equal(inner[4]!.size, 5);
    // The stored tree is not changed.
    assert.equal(
      (FULL.components[0] as { components: { file?: { url: string } }[] }).components[4]!.file!.url,
      'attachment://notes.txt',
    );
  });
});

describe('components v2 as stored', () => {
  it('get the defaults v10 returns for fields left out, and keep what the app chose', () => {
    const [container, separator] = normalizeComponents([
      {
        type: 17,
        components: [
          { type: 9, components: [text('t')], accessory: thumbnail() },
          { type: 12, items: [{ media: { url: 'https://a.b/c.png' } }] },
          { type: 13, file: { url: 'attachment://f.txt' } },
        ],
      },
      { type: 14, spacing: 2, divider: null },
    ]) as Record<string, any>[];
    assert.deepEqual([container!.accent_color, container!.spoiler], [null, false]);
    const [section, gallery, file] = container!.components;
    assert.deepEqual([section.accessory.description, section.accessory.spoiler], [null, false]);
    assert.deepEqual(gallery.items[0], { media: { url: 'https://a.b/c.png' }, description: null, spoiler: false });
    assert.equal(file.spoiler, false);
    assert.deepEqual([separator!.spacing, separator!.divider], [2, true]);
  });
});
