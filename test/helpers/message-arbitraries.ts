/**
 * fast-check arbitraries of message bodies v10 accepts: action rows of buttons (every style) or one
 * select, embeds within every limit. Custom ids are made unique per message by their position, so
 * a property can break exactly one rule at a known path.
 */
import fc from 'fast-check';
import type { Json } from './json.js';

const text = (min: number, max: number) => fc.string({ minLength: min, maxLength: max, unit: 'grapheme-ascii' });
const webUrl = fc.webUrl({ validSchemes: ['http', 'https'] }).filter((url) => url.length <= 512);
const unicodeEmoji = fc.constantFrom('👍', '❤️', '❤', '🇫🇷', '1️⃣', '👩🏽‍💻', '🎉');
const customEmoji = fc.record({
  id: fc.bigInt({ min: 1n << 40n, max: (1n << 62n) - 1n }).map(String),
  name: fc.stringMatching(/^[A-Za-z0-9_]{2,32}$/),
});
const emoji = fc.oneof(
  unicodeEmoji.map((name) => ({ name })),
  customEmoji,
);

/** A button without its custom id: `withIds` gives every interactive one. */
const button = fc.oneof(
  fc.record(
    {
      type: fc.constant(2),
      style: fc.integer({ min: 1, max: 4 }),
      label: text(0, 80),
      emoji,
      disabled: fc.boolean(),
    },
    { requiredKeys: ['type', 'style'] },
  ),
  fc.record({ type: fc.constant(2), style: fc.constant(5), url: webUrl, label: text(1, 80) }),
);

const option = (value: string) =>
  fc.record(
    { label: text(1, 100), value: fc.constant(value), description: text(0, 100), emoji },
    { requiredKeys: ['label', 'value'] },
  );

const stringSelect = fc.integer({ min: 1, max: 25 }).chain((count) =>
  fc
    .tuple(
      fc.tuple(...Array.from({ length: count }, (_, index) => option(`v${index}`))),
      fc.integer({ min: 1, max: count }),
    )
    .chain(([options, max]) =>
      fc.record({
        type: fc.constant(3),
        options: fc.constant(options),
        max_values: fc.constant(max),
        min_values: fc.integer({ min: 0, max }),
        placeholder: text(0, 150),
      }),
    ),
);

const idSelect = fc.record(
  { type: fc.constantFrom(5, 6, 7, 8), placeholder: text(0, 150), disabled: fc.boolean() },
  { requiredKeys: ['type'] },
);

const row = fc.oneof(
  fc.array(button, { minLength: 1, maxLength: 5 }).map((components) => ({ type: 1, components })),
  fc.oneof(stringSelect, idSelect).map((select) => ({ type: 1, components: [select] })),
);

/** Gives every component that takes one a custom id unique in the message, from its position. */
function withIds(rows: Json[]): Json[] {
  return rows.map((r, i) => ({
    ...r,
    components: r.components.map((c: Json, j: number) =>
      c.type === 2 && c.style === 5 ? c : { ...c, custom_id: `c${i}.${j}` },
    ),
  }));
}

/** 0-5 valid action rows. */
export const validComponents = fc.array(row, { maxLength: 5 }).map(withIds);

const imageUrl = fc.oneof(
  webUrl,
  fc.stringMatching(/^[a-z0-9_]{1,20}\.png$/).map((name) => `attachment://${name}`),
);

/** One embed within every per-field limit (short texts, so that ten stay within 6000). */
export const validEmbed = fc.record(
  {
    title: text(0, 60),
    description: text(0, 200),
    url: webUrl,
    color: fc.integer({ min: 0, max: 0xffffff }),
    timestamp: fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString()),
    image: imageUrl.map((url) => ({ url })),
    thumbnail: imageUrl.map((url) => ({ url })),
    footer: fc.record({ text: text(0, 60), icon_url: imageUrl }, { requiredKeys: ['text'] }),
    author: fc.record({ name: text(0, 60), url: webUrl, icon_url: imageUrl }, { requiredKeys: ['name'] }),
    fields: fc.array(fc.record({ name: text(0, 20), value: text(0, 20), inline: fc.boolean() }), { maxLength: 5 }),
  },
  { requiredKeys: [] },
);
