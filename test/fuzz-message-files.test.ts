/**
 * A fast-check property of the message and multipart paths on both stores (a SQLite file and a
 * PostgreSQL schema): sends, edits and edits' attachment lists with filenames, payload strings
 * and descriptions holding lone surrogates, control characters and huge unicode, odd part
 * Content-Types, odd field names and broken payload_json. No request answers 5xx, and after
 * every one the channel's history reads and every file it lists downloads: no stored row fails a
 * later read (issue 35, items 2 and 9).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { attachmentWorld, download } from './helpers/attachments.js';
import type { Json } from './helpers/json.js';
import { validComponents } from './helpers/message-arbitraries.js';
import { dropSchema, freshSchemaName, postgresConnectionString, unreachable } from './helpers/postgres.js';
import { sendRaw, type RawPart } from './helpers/raw-multipart.js';
import { startServer, type TestServer } from './helpers/server.js';
import { ALICE_TOKEN, BOT, CAROL_TOKEN, GENERAL, NSFW_LOUNGE } from './helpers/world.js';

/** Runs per store: enough to meet every kind of request many times, within a few seconds each. */
const RUNS_PER_STORE = 120;
/** A fixed seed: a failure reproduces as it was seen. */
const SEED = 350_902;

/** Characters that break encoders: lone surrogates, controls, path and URL characters, wide ones. */
const NASTY_CHARS = [
  '\ud800',
  '\udfff',
  '\u0000',
  '\u0001',
  '\u007f',
  '\r\n',
  '\t',
  ' ',
  '/',
  '\\',
  '%',
  '%00',
  '"',
  '.',
  '#',
  '?',
  ';',
  "'",
  '😀',
  '👩🏽‍💻',
  '\u202e',
  '\ufeff',
  '\uffff',
  'é',
  'a',
  'Z',
  '9',
];

const nasty = fc.oneof(
  fc.string({ unit: fc.constantFrom(...NASTY_CHARS), maxLength: 24 }),
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.constantFrom('\ud800', '😀'.repeat(600), `${'😀'.repeat(400)}.png`, 'a'.repeat(1100), '', '.', '..', 'x.txt'),
);

const contentType = fc.oneof(
  fc.constantFrom(
    'text/html\x01',
    'image/png',
    'TEXT/PLAIN; charset=utf-8',
    'text/plain; charset="a;b"',
    'application/octet-stream',
    '',
    'a/b/c',
    ';;;',
    `${'x'.repeat(300)}/y`,
    'text/\u00e9',
  ),
  fc.string({ unit: fc.constantFrom('a', '/', ';', '=', '"', '\x00', '\x01', '\x7f', ' ', 'é'), maxLength: 16 }),
);

const fieldName = fc.oneof(
  fc.constantFrom('files[0]', 'files[1]', 'files[2]', 'files[999999]', 'files[-1]', 'file', 'files', 'payload_json'),
  fc.string({ unit: fc.constantFrom('f', '[', ']', '0', '\x01', 'é', '"'), maxLength: 10 }),
);

/** An entry of `attachments`: a file the message has (its position, resolved when sent), an upload, or anything. */
const attachmentEntry = fc.record(
  {
    id: fc.oneof(
      fc.nat(3).map((n) => ({ keep: n })),
      fc.nat(3),
      fc.constantFrom('0', '1', '99999999999999999999', -1, null, '\ud800'),
    ),
    filename: nasty,
    description: nasty,
  },
  { requiredKeys: ['id'] },
);

const embed = fc.record(
  {
    title: nasty,
    description: nasty,
    image: fc.record({
      url: fc.oneof(
        nasty.map((n) => `attachment://${n}`),
        fc.constant('attachment://x.txt'),
      ),
    }),
    footer: fc.record({ text: nasty }),
  },
  { requiredKeys: [] },
);

/** A message body as JSON: every field optional, strings nasty. */
const body = fc.record(
  {
    content: nasty,
    attachments: fc.oneof(fc.array(attachmentEntry, { maxLength: 4 }), fc.constant(null)),
    embeds: fc.array(embed, { maxLength: 2 }),
    components: validComponents,
  },
  { requiredKeys: [] },
);

/** `payload_json`: a body (its ids resolved when sent), text that is not JSON, or JSON that is no object. */
const payload = fc.oneof(
  { weight: 4, arbitrary: body.map((b) => ({ body: b })) },
  {
    weight: 1,
    arbitrary: fc
      .oneof(nasty, fc.constantFrom('{"content": ', '[]', 'null', '1', '{"__proto__":{}}'))
      .map((raw) => ({ raw })),
  },
);

const filePart = fc.record({
  name: fieldName,
  filename: nasty,
  contentType: fc.option(contentType, { nil: undefined }),
  bytes: fc.uint8Array({ maxLength: 64 }),
});

const request = fc.record({
  method: fc.constantFrom('POST', 'PATCH'),
  multipart: fc.boolean(),
  channel: fc.constantFrom(GENERAL, NSFW_LOUNGE),
  author: fc.constantFrom(BOT, ALICE_TOKEN, CAROL_TOKEN),
  payload,
  /** Where payload_json goes among the files: first, last, or absent. */
  payloadAt: fc.constantFrom('first', 'last', 'absent'),
  files: fc.array(filePart, { maxLength: 3 }),
});
type Request = typeof request extends fc.Arbitrary<infer T> ? T : never;

/** The body with each `{keep: n}` id replaced by the id of the message's n-th file (a made-up one past them). */
function resolveIds(value: Json, kept: readonly string[]): Json {
  if (!value || typeof value !== 'object' || !Array.isArray(value.attachments)) return value;
  return {
    ...value,
    attachments: value.attachments.map((entry: Json) =>
      entry.id && typeof entry.id === 'object' && 'keep' in entry.id
        ? { ...entry, id: kept[entry.id.keep] ?? '1345183757107299999' }
        : entry,
    ),
  };
}

function storeCases(): { name: string; open: () => Promise<{ server: TestServer; close: () => Promise<void> }> }[] {
  return [
    {
      name: 'SQLite file',
      open: async () => {
        const server = await startServer({ world: attachmentWorld() });
        return { server, close: () => server.close() };
      },
    },
    {
      name: 'PostgreSQL',
      open: async () => {
        const schema = freshSchemaName('slashd_fuzz_files');
        const server = await startServer({
          world: attachmentWorld(),
          db: postgresConnectionString,
          config: { dbSchema: schema },
        }).catch((error: unknown) => {
          throw unreachable(error);
        });
        return {
          server,
          close: async () => {
            await server.close();
            await dropSchema(schema);
          },
        };
      },
    },
  ];
}

for (const store of storeCases()) {
  describe(`fuzz: message files on ${store.name}`, () => {
    let server: TestServer;
    let close: () => Promise<void>;
    /** The newest message each author has in each channel: what a PATCH edits. */
    const newest = new Map<string, { id: string; files: string[] }>();
    let answers = 0;

    before(async () => {
      ({ server, close } = await store.open());
    });
    after(() => close?.());

    async function send(req: Request): Promise<{ status: number; text: string; body: Json }> {
      const key = `${req.author} ${req.channel}`;
      const target = req.method === 'PATCH' ? newest.get(key) : undefined;
      const path = `/channels/${req.channel}/messages${target ? `/${target.id}` : ''}`;
      const method = target ? 'PATCH' : 'POST';
      const json = 'body' in req.payload ? resolveIds(req.payload.body, target?.files ?? []) : undefined;
      const text = json !== undefined ? JSON.stringify(json) : (req.payload as { raw: string }).raw;
      if (!req.multipart) {
        return server.request(method, path, {
          auth: req.author,
          rawBody: text,
          headers: { 'content-type': 'application/json' },
        });
      }
      const files: RawPart[] = req.files.map((file) => ({
        name: file.name,
        filename: file.filename,
        contentType: file.contentType,
        body: file.bytes,
      }));
      const field: RawPart = { name: 'payload_json', body: text };
      const parts =
        req.payloadAt === 'first' ? [field, ...files] : req.payloadAt === 'last' ? [...files, field] : files;
      return sendRaw(`${server.api}${path}`, method, req.author, parts);
    }

    /** The channel's newest messages read, and each of their files downloads whole. */
    async function assertReadable(channelId: string): Promise<void> {
      const list = await server.request('GET', `/channels/${channelId}/messages?limit=5`, { auth: ALICE_TOKEN });
      assert.equal(list.status, 200, `the history of ${channelId} reads: ${list.text}`);
      for (const message of list.body as Json[]) {
        const one = await server.request('GET', `/channels/${channelId}/messages/${message.id}`, { auth: ALICE_TOKEN });
        assert.equal(one.status, 200, `message ${message.id} reads: ${one.text}`);
        for (const file of message.attachments as Json[]) {
          const got = await download(file.url as string, ALICE_TOKEN);
          assert.equal(got.status, 200, `${file.url} downloads: ${got.bytes.toString()}`);
          assert.equal(got.bytes.length, file.size, `${file.url} has its bytes`);
        }
      }
    }

    test('no request answers 5xx, and every stored message and file reads afterwards', async () => {
      await fc.assert(
        fc.asyncProperty(request, async (req) => {
          const answer = await send(req);
          assert.ok(answer.status < 500, `${req.method} answered ${answer.status}: ${answer.text}`);
          if (answer.status === 200 && answer.body?.id) {
            answers += 1;
            newest.set(`${req.author} ${req.channel}`, {
              id: answer.body.id as string,
              files: ((answer.body.attachments ?? []) as Json[]).map((a) => a.id as string),
            });
          }
          await assertReadable(req.channel);
        }),
        { numRuns: RUNS_PER_STORE, seed: SEED, endOnFailure: true },
      );
      // The property met messages that were written, not only refusals.
      assert.ok(answers >= RUNS_PER_STORE / 10, `only ${answers} requests were accepted`);
    });
  });
}
