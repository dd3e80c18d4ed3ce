/**
 * The attachment rules as pure functions: image dimensions read from header bytes, filenames
 * cleaned (no lone surrogate, a servable URL, idempotent for any string), content types kept only
 * as valid media types, the uploads a command's options name, which files a create or an edit ends up with (and every refusal at its path), and
 * `attachment://` resolved in embeds.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { cleanFilename, normalizeContentType, urlFilename } from './rules/filename.js';
import { referencedUploadIndices } from './rules/invocation.js';
import { ATTACHMENT_FILENAME_URL_LENGTH_MAX } from './rules/limits.js';
import { readImageInfo } from './rules/image-size.js';
import { resolveAttachmentUrls, type StoredAttachment, type UploadedFile } from './rules/model.js';
import { planAttachments } from './rules/plan.js';
import { ATTACHMENT_NOT_FOUND, BASE_TYPE_BAD_LENGTH, BASE_TYPE_MAX_LENGTH } from '../../core/io/codes.js';
import { gifHead, jpegHead, pngImage, webpHead } from '../../../test/helpers/images.js';

function upload(index: number, filename: string, head: Buffer = Buffer.from('hello')): UploadedFile {
  return { index, filename, content_type: null, size: head.length, head };
}

function ids(): () => string {
  let next = 900;
  return () => String((next += 1));
}

const existing: StoredAttachment[] = [
  { id: '1100000000000000001', filename: 'a.txt', size: 3 },
  { id: '1100000000000000002', filename: 'b.txt', size: 4 },
];

describe('image dimensions from header bytes', () => {
  it('reads PNG, JPEG, GIF and WebP, and nothing from other bytes', () => {
    assert.deepEqual(readImageInfo(pngImage(3, 2)), { content_type: 'image/png', width: 3, height: 2 });
    assert.deepEqual(readImageInfo(jpegHead(640, 480)), { content_type: 'image/jpeg', width: 640, height: 480 });
    assert.deepEqual(readImageInfo(gifHead(17, 9)), { content_type: 'image/gif', width: 17, height: 9 });
    assert.deepEqual(readImageInfo(webpHead(1000, 300)), { content_type: 'image/webp', width: 1000, height: 300 });
    assert.equal(readImageInfo(Buffer.from('not an image at all, just text')), null);
    assert.equal(readImageInfo(pngImage(3, 2).subarray(0, 12)), null);
  });
});

describe('filenames', () => {
  it('keep the last path segment, spaces as underscores, no unsafe characters', () => {
    assert.equal(cleanFilename('../../etc/passwd'), 'passwd');
    assert.equal(cleanFilename('my cat photo.png'), 'my_cat_photo.png');
    assert.equal(cleanFilename('a<b>c?.txt'), 'abc.txt');
    assert.equal(cleanFilename('///'), 'unknown');
  });

  it('drop lone surrogates, keep pairs, and cut a long name to a bounded URL keeping its extension', () => {
    assert.equal(cleanFilename('\ud800'), 'unknown');
    assert.equal(cleanFilename('a\udc00b\ud83d.txt'), 'ab.txt');
    assert.equal(cleanFilename('😀.png'), '😀.png');
    const cut = cleanFilename(`${'😀'.repeat(600)}.png`);
    assert.ok(cut.endsWith('😀.png'), cut);
    assert.ok(urlFilename(cut).length <= ATTACHMENT_FILENAME_URL_LENGTH_MAX);
    assert.equal(urlFilename('\ud800x'), 'x', 'a name stored before the cleaning still encodes');
  });

  it('any string cleans to a non-empty name that encodes within the bound, and cleaning it again changes nothing', () => {
    const unit = fc.oneof(
      fc.constantFrom('\ud800', '\udfff', '.', ' ', '/', '%', '\u0000', '😀'),
      fc.string({ unit: 'binary', maxLength: 1 }),
    );
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit, maxLength: 40 }), fc.string({ unit, minLength: 300, maxLength: 1200 })),
        (raw) => {
          const name = cleanFilename(raw);
          assert.notEqual(name, '');
          assert.ok(urlFilename(name).length <= ATTACHMENT_FILENAME_URL_LENGTH_MAX);
          assert.equal(cleanFilename(name), name);
        },
      ),
      { numRuns: 300, seed: 35 },
    );
  });
});

describe('content types', () => {
  it('are valid media types in lower case with their well-formed parameters, or none', () => {
    assert.equal(normalizeContentType('Text/Plain; charset=utf-8'), 'text/plain; charset=utf-8');
    assert.equal(normalizeContentType('text/plain; charset="utf-8"; bad'), 'text/plain; charset="utf-8"');
    assert.equal(normalizeContentType('text/html\x01'), undefined);
    assert.equal(normalizeContentType('text'), undefined);
    assert.equal(normalizeContentType('a/b/c'), undefined);
    assert.equal(normalizeContentType(`${'x'.repeat(300)}/y`), undefined);
    assert.equal(normalizeContentType(null), undefined);
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '/', ';', '=', '"', ' ', '\x01', 'é', 'B') }), (raw) => {
        const type = normalizeContentType(raw);
        if (type !== undefined) assert.equal(normalizeContentType(type), type);
      }),
      { numRuns: 300, seed: 35 },
    );
  });
});

describe("a command's uploads", () => {
  it('are those its ATTACHMENT options name, in subcommands too', () => {
    const body = {
      data: {
        options: [
          {
            type: 1,
            name: 'sub',
            options: [
              { type: 11, name: 'a', value: 2 },
              { type: 3, name: 's', value: '0' },
            ],
          },
          { type: 11, name: 'b', value: '1' },
        ],
      },
    };
    assert.deepEqual([...referencedUploadIndices(body)].sort(), ['1', '2']);
    assert.deepEqual([...referencedUploadIndices({ data: {} })], []);
  });
});

describe('which files a message ends up with', () => {
  it('a create takes every upload; attachments[] renames and describes by files[n] index', () => {
    const png = pngImage(4, 5);
    const plan = planAttachments({
      requested: [{ id: 1, filename: 'chart.png', description: 'a chart' }],
      uploads: [upload(0, 'notes.txt'), upload(1, 'x.bin', png)],
      existing: [],
      path: ['attachments'],
      newId: ids(),
    });
    assert.ok(plan.ok);
    assert.deepEqual(plan.value.attachments, [
      {
        id: '901',
        filename: 'chart.png',
        size: png.length,
        content_type: 'image/png',
        description: 'a chart',
        width: 4,
        height: 5,
      },
      { id: '902', filename: 'notes.txt', size: 5, content_type: 'text/plain; charset=utf-8' },
    ]);
    assert.equal(plan.value.added.length, 2);
  });

  it('an edit keeps the listed files and drops the rest; without a list it keeps all; null drops all', () => {
    const listed = planAttachments({
      requested: [{ id: existing[1]!.id }, { id: 0 }],
      uploads: [upload(0, 'new.txt')],
      existing,
      path: ['attachments'],
      newId: ids(),
    });
    assert.ok(listed.ok);
    assert.deepEqual(
      listed.value.attachments.map((a) => a.filename),
      ['b.txt', 'new.txt'],
    );
    assert.deepEqual(listed.value.dropped, [existing[0]!.id]);
    const unlisted = planAttachments({
      requested: undefined,
      uploads: [upload(0, 'c.txt')],
      existing,
      path: ['attachments'],
      newId: ids(),
    });
    assert.ok(unlisted.ok);
    assert.deepEqual(
      unlisted.value.attachments.map((a) => a.filename),
      ['a.txt', 'b.txt', 'c.txt'],
    );
    const cleared = planAttachments({ requested: null, uploads: [], existing, path: ['attachments'], newId: ids() });
    assert.ok(cleared.ok);
    assert.deepEqual(cleared.value.attachments, []);
    assert.deepEqual(
      cleared.value.dropped,
      existing.map((a) => a.id),
    );
  });

  it('refuses an unknown id, a bad filename and more than ten files, each at its path', () => {
    const plan = planAttachments({
      requested: [{ id: 7 }, { id: 0, filename: '' }, { id: 0 }],
      uploads: Array.from({ length: 11 }, (_, i) => upload(i, `f${i}.txt`)),
      existing: [],
      path: ['data', 'attachments'],
      newId: ids(),
    });
    assert.ok(!plan.ok);
    assert.deepEqual(
      plan.issues.map((i) => [i.path, i.code]),
      [
        [['data', 'attachments', 1, 'filename'], BASE_TYPE_BAD_LENGTH],
        [['data', 'attachments', 2, 'id'], ATTACHMENT_NOT_FOUND],
        [['data', 'attachments'], BASE_TYPE_MAX_LENGTH],
      ],
    );
  });
});

describe('attachment:// in embeds', () => {
  it('names a file of the message and becomes its URL; other names stay', () => {
    const embeds = [{ image: { url: 'attachment://a.txt' }, thumbnail: { url: 'attachment://gone.png' } }];
    const resolved = resolveAttachmentUrls(embeds, existing, (a) => `https://x/${a.id}`);
    assert.deepEqual(resolved, [
      { image: { url: `https://x/${existing[0]!.id}` }, thumbnail: { url: 'attachment://gone.png' } },
    ]);
  });
});
