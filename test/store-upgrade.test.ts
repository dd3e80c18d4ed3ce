/**
 * An upgrade keeps every row: databases written by slashd at commit 2a25682 (the main branch before
 * the dated migrations; test/fixtures/upgrade/README.md says how they were made) are opened by
 * this code, which migrates them, and every row of every table reads back as it was, on both
 * dialects; a world export, a command list, messages, reactions, an attachment's bytes and the
 * audit log read back through the store as they were written.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { LATEST_VERSION as POSTGRES_LATEST } from '../src/store/postgres/migrations.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { LATEST_VERSION as SQLITE_LATEST } from '../src/store/sqlite/migrations.js';
import type { Store } from '../src/store/store.js';
import { datedMigrationsOf } from '../src/store/migrations/index.js';
import { RESOURCES } from '../src/resources/index.js';
import { dropSchema, freshSchemaName, postgresConnectionString, withAdminClient } from './helpers/postgres.js';
import { ALICE_ID, DEMO_APP_ID, GENERAL, HELLO_MESSAGE, TEST_GUILD_ID } from './helpers/world.js';

const FIXTURES = fileURLToPath(new URL('../../test/fixtures/upgrade/', import.meta.url));
/** The schema name the PostgreSQL dump was taken of; the test restores it under a fresh one. */
const DUMPED_SCHEMA = 'slashd_upgrade_fixture';
/** The schema versions the fixtures are at: the newest at 2a25682. */
const FIXTURE_VERSION = { sqlite: 18, postgres: 16 };
/** The attachment the fixture sent: 20,000 bytes, byte i being i mod 251. */
const ATTACHMENT_SIZE = 20_000;
const ATTACHMENT_MODULUS = 251;

/** Every row of every table, each row as JSON, sorted: what must survive the upgrade. */
type Rows = Record<string, string[]>;

/** Tables the upgrade writes to: their old rows must stay, new ones may come. */
const MIGRATION_TABLES = new Set(['schema_migrations', 'schema_dated_migrations']);

function assertEveryRowKept(before: Rows, after: Rows): void {
  for (const [table, rows] of Object.entries(before)) {
    assert.ok(after[table], `the table ${table} is still there`);
    if (MIGRATION_TABLES.has(table)) {
      for (const row of rows) assert.ok(after[table].includes(row), `${table} keeps ${row}`);
    } else {
      assert.equal(after[table].length, rows.length, `the rows of ${table}`);
      assert.deepEqual(after[table], rows, `the rows of ${table}`);
    }
  }
  const written = Object.values(before).reduce((sum, rows) => sum + rows.length, 0);
  assert.ok(written > 80, `the fixture holds rows (${written})`);
}

function sqliteRows(path: string): Rows {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .pluck()
      .all() as string[];
    return Object.fromEntries(
      tables.map((table) => [table, (db.prepare(`SELECT * FROM ${table}`).all() as object[]).map(rowText).sort()]),
    );
  } finally {
    db.close();
  }
}

async function postgresRows(client: pg.Client, schema: string): Promise<Rows> {
  const tables = await client.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'`,
    [schema],
  );
  const rows: Rows = {};
  for (const { table_name: table } of tables.rows) {
    const result = await client.query<object>(`SELECT * FROM "${schema}"."${table}"`);
    rows[table] = result.rows.map(rowText).sort();
  }
  return rows;
}

/** A row as text: bytes as hex, so that two reads of the same bytes compare equal. */
function rowText(row: object): string {
  return JSON.stringify(row, (_key, value: unknown) =>
    Buffer.isBuffer(value) ? value.toString('hex') : typeof value === 'bigint' ? String(value) : value,
  );
}

/** The id of the fixture's message in #general with `content`, read from the rows themselves. */
function messageIdOf(rows: Rows, content: string): string {
  for (const text of rows['messages'] ?? []) {
    const row = JSON.parse(text) as { id: string; doc: string };
    if ((JSON.parse(row.doc) as { content?: string }).content === content) return row.id;
  }
  throw new Error(`no message '${content}' in the fixture`);
}

async function bytesOf(file: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const pieces: Uint8Array[] = [];
  for await (const piece of file) pieces.push(piece);
  return Buffer.concat(pieces);
}

/** What the fixture wrote, read back through the store of this code. */
async function assertReadsBack(store: Store, rows: Rows): Promise<void> {
  const world = await store.world.exportWorld();
  assert.equal(world.applications.length, 3);
  assert.equal(world.users.length, 5);
  const guild = world.guilds.find((g) => g.id === TEST_GUILD_ID);
  assert.ok(guild);
  assert.ok(guild.roles.some((role) => role.name === 'fixture role'));
  assert.ok(guild.channels.some((channel) => channel.name === 'fixture-channel'));
  assert.equal(guild.members.find((member) => member.user_id === '1335036896870400003')?.nick, 'caro');

  const global = await store.commands.listCommands({ applicationId: DEMO_APP_ID, guildId: null });
  assert.deepEqual(global.map((command) => command.definition.name).sort(), ['Inspect', 'echo', 'ping']);
  const inGuild = await store.commands.listCommands({ applicationId: DEMO_APP_ID, guildId: TEST_GUILD_ID });
  assert.deepEqual(inGuild.map((command) => command.definition.name).sort(), ['poll', 'whisper']);

  const hello = messageIdOf(rows, 'hello everyone');
  assert.equal((await store.interactions.getMessage(GENERAL, hello))?.content, 'hello everyone');
  const page = await store.interactions.listChannelMessages(GENERAL, ALICE_ID, 50);
  assert.ok(page.some((message) => message.content === 'only alice'));
  assert.deepEqual(await store.reactions.countReactions(GENERAL, HELLO_MESSAGE, ALICE_ID), [
    { emoji: '👍', count: 2, me: true },
  ]);
  const pins = await store.interactions.listPins(GENERAL, 50);
  assert.deepEqual(pins.map((pin) => pin.messageId).sort(), [hello, HELLO_MESSAGE].sort());

  const withFile = messageIdOf(rows, 'a file');
  const attachmentId = (await store.interactions.getMessage(GENERAL, withFile))?.attachments?.[0]?.id;
  assert.ok(attachmentId, 'the message names its file');
  const file = await store.attachments.readFile(GENERAL, attachmentId);
  assert.ok(file);
  const bytes = await bytesOf(file);
  assert.equal(bytes.length, ATTACHMENT_SIZE);
  assert.ok(bytes.every((byte, index) => byte === index % ATTACHMENT_MODULUS));

  const audit = await store.auditLog.listAuditEntries(TEST_GUILD_ID, {
    userId: null,
    actionType: null,
    before: null,
    after: null,
    limit: 100,
  });
  assert.equal(audit.length, 5);
}

describe('an upgrade from 2a25682 keeps every row', () => {
  const dir = mkdtempSync(join(tmpdir(), 'slashd-upgrade-'));
  const schemas: string[] = [];
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    for (const schema of schemas) await dropSchema(schema);
  });

  test('SQLite', async () => {
    const path = join(dir, 'slashd.sqlite');
    copyFileSync(join(FIXTURES, 'main-2a25682.sqlite'), path);
    const before = sqliteRows(path);
    const store = new SqliteStore({ path });
    try {
      assert.equal(store.migration.before, FIXTURE_VERSION.sqlite);
      assert.deepEqual(store.migration.applied, [SQLITE_LATEST]);
      await assertReadsBack(store, before);
    } finally {
      await store.close();
    }
    assertEveryRowKept(before, sqliteRows(path));
  });

  test('PostgreSQL', async () => {
    const schema = freshSchemaName('slashd_upgrade');
    schemas.push(schema);
    const dump = readFileSync(join(FIXTURES, 'main-2a25682.postgres.sql'), 'utf8');
    // The dump names its schema everywhere (tables, the functions' search_path): all become the fresh one.
    const before = await withAdminClient(async (client) => {
      await client.query(dump.replaceAll(DUMPED_SCHEMA, schema));
      return postgresRows(client, schema);
    });
    const store = await PostgresStore.open({ connectionString: postgresConnectionString, schema });
    try {
      assert.equal(store.migration.before, FIXTURE_VERSION.postgres);
      assert.deepEqual(store.migration.applied, [POSTGRES_LATEST]);
      const dated = datedMigrationsOf(RESOURCES)
        .filter((m) => m.postgres !== null)
        .map((m) => m.name);
      assert.deepEqual(store.migration.dated, dated);
      await assertReadsBack(store, before);
    } finally {
      await store.close();
    }
    assertEveryRowKept(before, await withAdminClient((client) => postgresRows(client, schema)));
  });
});
