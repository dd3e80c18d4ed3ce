/**
 * The SQLite backup of docs/operations.md, run as written: `slashd backup --to FILE` while a
 * `slashd serve` on the database takes a steady stream of message writes. Issue 39: `cp` of the
 * file lost the acknowledged messages still in the WAL. Every message acknowledged before the
 * backup began is in the copy, which a fresh `slashd serve` then serves and writes to.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { CLI, killAll, runToEnd, startChild, type RunningChild } from './helpers/cli-process.js';
import { requestAt } from './helpers/nodes.js';
import { ADMIN_TOKEN, BOT, GENERAL, exampleWorld } from './helpers/world.js';

const dir = mkdtempSync(join(tmpdir(), 'slashd-sqlite-backup-'));

after(() => {
  killAll();
  rmSync(dir, { recursive: true, force: true });
});

async function serve(db: string, extra: string[]): Promise<{ child: RunningChild; url: string }> {
  const child = startChild(process.execPath, [
    CLI,
    'serve',
    '--port',
    '0',
    '--db',
    db,
    '--admin-token',
    ADMIN_TOKEN,
    ...extra,
  ]);
  const url = (await child.waitForLine(/slashd listening on (http:\/\/[^\s"]+)/))[1]!;
  return { child, url };
}

/** Posts as a bot does: a 429 (serve's default limits) is waited out for its retry_after, then sent again. */
async function post(url: string, content: string): Promise<string> {
  for (;;) {
    const sent = await requestAt(url, 'POST', `/channels/${GENERAL}/messages`, { auth: BOT, body: { content } });
    if (sent.status === 429) {
      const retryAfter = (sent.body as { retry_after: number }).retry_after;
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(retryAfter * 1000)));
      continue;
    }
    assert.equal(sent.status, 200, sent.text);
    return (sent.body as { id: string }).id;
  }
}

/** Waits until `count` messages were acknowledged; fails at once if the writer failed. */
async function untilAcknowledged(acknowledged: string[], count: number, writer: Promise<void>): Promise<void> {
  const writing: { failed: Error | null } = { failed: null };
  writer.catch((error: unknown) => (writing.failed = error instanceof Error ? error : new Error(String(error))));
  while (acknowledged.length < count) {
    if (writing.failed !== null) throw writing.failed;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('slashd backup of a SQLite database under writes', () => {
  test('every message acknowledged before the backup is in the copy; the copy serves and takes writes', async () => {
    const db = join(dir, 'slashd.sqlite');
    const copy = join(dir, 'backup.sqlite');
    const world = join(dir, 'world.json');
    writeFileSync(world, JSON.stringify(exampleWorld()));
    const { child, url } = await serve(db, ['--world', world]);

    // A writer that keeps posting while the backup runs, one message at a time.
    const acknowledged: string[] = [];
    const state = { writing: true };
    const writer = (async () => {
      for (let i = 0; state.writing; i++) acknowledged.push(await post(url, `message ${i}`));
    })();
    await untilAcknowledged(acknowledged, 40, writer);
    const before = [...acknowledged];
    const backup = await runToEnd(process.execPath, [CLI, 'backup', '--db', db, '--to', copy]);
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stdout, /^backed up .* to .* \(\d+ bytes\)$/m);
    // More writes after the backup, then the writer stops.
    const at = acknowledged.length;
    await untilAcknowledged(acknowledged, at + 10, writer);
    state.writing = false;
    await writer;
    await child.stop();

    // The copy, served by a new node on it: every message acknowledged before the backup is there.
    const restored = await serve(copy, []);
    for (const id of before) {
      const read = await requestAt(restored.url, 'GET', `/channels/${GENERAL}/messages/${id}`, { auth: BOT });
      assert.equal(read.status, 200, `message ${id}: ${read.text}`);
    }
    // And one written after it is not (the copy is a point in time, not a mirror).
    const last = acknowledged.at(-1)!;
    const after = await requestAt(restored.url, 'GET', `/channels/${GENERAL}/messages/${last}`, { auth: BOT });
    assert.equal(after.status, 404, after.text);
    assert.match(await post(restored.url, 'after the restore'), /^\d+$/);
    await restored.child.stop();
  });

  test('refusals in one line: an existing target, a PostgreSQL URL, no --to', async () => {
    const db = join(dir, 'refusals.sqlite');
    writeFileSync(join(dir, 'taken'), 'x');
    const migrated = await runToEnd(process.execPath, [CLI, 'migrate', '--db', db]);
    assert.equal(migrated.code, 0, migrated.stderr);
    const taken = await runToEnd(process.execPath, [CLI, 'backup', '--db', db, '--to', join(dir, 'taken')]);
    assert.equal(taken.code, 2);
    assert.match(taken.stderr, /exists: the backup is written to a new file/);
    const postgres = await runToEnd(process.execPath, [
      CLI,
      'backup',
      '--db',
      'postgres://x/y',
      '--to',
      join(dir, 'p'),
    ]);
    assert.equal(postgres.code, 2);
    assert.match(postgres.stderr, /pg_dump/);
    const missing = await runToEnd(process.execPath, [CLI, 'backup', '--db', db]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--to FILE is required/);
  });
});
