/**
 * A channel's rows go with it: every table with a `channel_id` column is declared by its resource
 * as channel-owned (`Resource.channelOwnedTables`, deleted in the channel's delete transaction) or
 * is listed here with the reason it outlives the channel. A new resource's table of channel rows
 * (webhooks, invites...) fails this test until its resource declares it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { channelOwnedTables } from '../src/resources/index.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';

/** Tables with a `channel_id` that a guild channel's delete keeps, each with why. */
const KEPT_PAST_THE_CHANNEL: Record<string, string> = {
  channel_guilds: 'the index of the guild channels itself, rewritten with the guild document',
  dm_channels: 'DM channels belong to no guild: no guild channel delete reaches them',
  group_dms: 'group DMs belong to no guild: no guild channel delete reaches them',
  group_dm_recipients: 'the recipients of a group DM, which no guild channel delete reaches',
};

test('every table of channel rows is channel-owned or kept for a stated reason', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'slashd-channel-owned-'));
  try {
    const path = join(dir, 'store.db');
    await new SqliteStore({ path }).close();
    const db = new Database(path, { readonly: true });
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[])
      .map((row) => row.name)
      .filter((name) =>
        (db.prepare(`PRAGMA table_info(${name})`).all() as { name: string }[]).some((c) => c.name === 'channel_id'),
      )
      .sort();
    db.close();
    const owned = channelOwnedTables();
    assert.equal(new Set(owned).size, owned.length, 'no table declared twice');
    for (const table of owned)
      assert.ok(tables.includes(table), `${table} is declared channel-owned but has no channel_id`);
    const undeclared = tables.filter((t) => !owned.includes(t) && !(t in KEPT_PAST_THE_CHANNEL));
    assert.deepEqual(undeclared, [], 'declare them in their resource’s `channelOwnedTables`');
    assert.ok(owned.includes('messages'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
