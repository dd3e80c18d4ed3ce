/**
 * AttachmentStore: a message's files written all or none, read back piece by piece with the same
 * bytes, counted per owner, dropped one by one by an edit, and gone with their message (one or in bulk).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AttachmentFile } from '../../src/store/store.js';
import { APP_A, APP_B, CHANNEL_1, CHANNEL_2, message } from './fixtures.js';
import { freshDatabasePerTest, type MakeStores } from './harness.js';

const MESSAGE = '1500000000000000001';
const FILE_1 = '1600000000000000001';
const FILE_2 = '1600000000000000002';
const PIECE = 256 * 1024;

/** A file of `size` bytes whose every byte depends on its position, in pieces of PIECE bytes. */
function file(id: string, size: number): AttachmentFile & { bytes: Buffer } {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i += 1) bytes[i] = (i * 7 + id.length) % 251;
  return {
    id,
    size,
    bytes,
    attachment: { id, filename: `${id}.bin`, size },
    chunks: function* () {
      for (let at = 0; at < size; at += PIECE) yield bytes.subarray(at, Math.min(size, at + PIECE));
    },
  };
}

async function collect(pieces: AsyncIterable<Uint8Array> | null): Promise<Buffer | null> {
  if (!pieces) return null;
  const parts: Buffer[] = [];
  for await (const piece of pieces) parts.push(Buffer.from(piece));
  return Buffer.concat(parts);
}

export function describeAttachmentStoreContract(name: string, make: MakeStores): void {
  describe(`${name}: AttachmentStore`, () => {
    const t = freshDatabasePerTest(make);
    const store = () => t.stores.attachments;
    const owner = { ownerId: APP_A, channelId: CHANNEL_1, messageId: MESSAGE };

    it('a message’s files are read back, piece by piece, with the same bytes; on another connection too', async () => {
      const big = file(FILE_1, PIECE * 2 + 17);
      const small = file(FILE_2, 5);
      await store().putFiles(owner, [big, small]);
      assert.deepEqual(await collect(await store().readFile(CHANNEL_1, FILE_1)), big.bytes);
      const other = await t.db.connect();
      assert.deepEqual(await collect(await other.attachments.readFile(CHANNEL_1, FILE_2)), small.bytes);
      assert.deepEqual(await store().findFile(CHANNEL_1, FILE_1), {
        attachment: { id: FILE_1, filename: `${FILE_1}.bin`, size: big.size },
        ownerId: APP_A,
        messageId: MESSAGE,
        size: big.size,
      });
      assert.equal(await store().findFile(CHANNEL_2, FILE_1), null, 'a file is keyed by its channel');
      assert.equal(await store().readFile(CHANNEL_2, FILE_1), null);
    });

    it('files are written all or none: a taken id fails the whole call', async () => {
      await store().putFiles(owner, [file(FILE_1, 10)]);
      await assert.rejects(store().putFiles(owner, [file(FILE_2, 10), file(FILE_1, 10)]));
      assert.equal(await store().findFile(CHANNEL_1, FILE_2), null);
      assert.equal(await store().storedBytes(APP_A), 10);
    });

    it('other work runs between the pieces of a file being stored (the event loop is not held for a whole file)', async () => {
      const order: string[] = [];
      const big = file(FILE_1, PIECE * 4);
      const pieces = big.chunks;
      let ticking = true;
      const tick = () => {
        order.push('tick');
        if (ticking) setImmediate(tick);
      };
      setImmediate(tick);
      await store().putFiles(owner, [
        {
          ...big,
          chunks: function* () {
            for (const piece of pieces() as Iterable<Uint8Array>) {
              order.push('piece');
              yield piece;
            }
          },
        },
      ]);
      ticking = false;
      const between = order.slice(order.indexOf('piece'), order.lastIndexOf('piece'));
      assert.ok(between.includes('tick'), order.join(' '));
      assert.deepEqual(await collect(await store().readFile(CHANNEL_1, FILE_1)), big.bytes);
    });

    it('stored bytes are counted per owner; deleted files stop counting', async () => {
      await store().putFiles(owner, [file(FILE_1, 1000), file(FILE_2, 24)]);
      await store().putFiles({ ownerId: APP_B, channelId: CHANNEL_2, messageId: MESSAGE }, [file(FILE_1, 7)]);
      assert.equal(await store().storedBytes(APP_A), 1024);
      assert.equal(await store().storedBytes(APP_B), 7);
      await store().deleteFiles(CHANNEL_1, [FILE_1]);
      assert.equal(await store().storedBytes(APP_A), 24);
      assert.equal(await store().readFile(CHANNEL_1, FILE_1), null);
      assert.equal(await store().storedBytes(APP_B), 7, 'the same id in another channel is another file');
    });

    it('a message’s files go with it', async () => {
      await t.stores.interactions.putMessage(message(CHANNEL_1, MESSAGE, 'with files'));
      await store().putFiles(owner, [file(FILE_1, PIECE + 1), file(FILE_2, 3)]);
      assert.equal(await t.stores.interactions.deleteMessage(CHANNEL_1, MESSAGE), true);
      assert.equal(await store().findFile(CHANNEL_1, FILE_1), null);
      assert.equal(await store().readFile(CHANNEL_1, FILE_2), null);
      assert.equal(await store().storedBytes(APP_A), 0);
    });

    it('a bulk delete takes the deleted messages’ files, and only theirs', async () => {
      const kept = '1500000000000000002';
      await t.stores.interactions.putMessage(message(CHANNEL_1, MESSAGE, 'with files'));
      await t.stores.interactions.putMessage(message(CHANNEL_1, kept, 'kept'));
      await store().putFiles(owner, [file(FILE_1, PIECE + 1)]);
      await store().putFiles({ ...owner, messageId: kept }, [file(FILE_2, 3)]);
      assert.deepEqual(await t.stores.interactions.deleteMessages(CHANNEL_1, [MESSAGE]), [MESSAGE]);
      assert.equal(await store().findFile(CHANNEL_1, FILE_1), null);
      assert.equal(await store().readFile(CHANNEL_1, FILE_1), null);
      assert.deepEqual(await collect(await store().readFile(CHANNEL_1, FILE_2)), file(FILE_2, 3).bytes);
      assert.equal(await store().storedBytes(APP_A), 3);
    });
  });
}
