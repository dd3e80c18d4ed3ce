/**
 * `PUT .../commands?dry_run=true` ("Must show"): for 100 commands with 10 changed, the answer lists
 * exactly those 10 with the paths of their changed fields, and the store is untouched: the list's
 * bytes and the scope's daily create counter are the same before and after. Also: additions,
 * removals and the daily creates a real overwrite would use; a refused `dry_run` value is 50035.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { injectServer, type TestServer } from '../../../test/helpers/server.js';
import type { Json } from '../../../test/helpers/json.js';
import { BOT, DEMO_APP_ID, GLOBAL_BASE, GUILD_BASE, TEST_GUILD_ID } from '../../../test/helpers/world.js';

const COMMANDS = 100;

function command(i: number): Json {
  return {
    name: `command-${String(i).padStart(3, '0')}`,
    description: `Command number ${i}`,
    options: [{ type: 3, name: 'text', description: 'Some text', required: false }],
  };
}

/** Ten edits, each of a different field, and the paths the dry run must name for each. */
const EDITS: [index: number, edit: (c: Json) => void, fields: string[]][] = [
  [3, (c) => (c.description = 'A new description'), ['description']],
  [11, (c) => (c.name_localizations = { fr: 'commande-onze' }), ['name_localizations']],
  [19, (c) => (c.description_localizations = { de: 'Befehl' }), ['description_localizations']],
  [27, (c) => (c.default_member_permissions = '8'), ['default_member_permissions']],
  [35, (c) => (c.nsfw = true), ['nsfw']],
  [43, (c) => (c.options[0].description = 'Other text'), ['options[0].description']],
  [51, (c) => (c.options[0].required = true), ['options[0].required']],
  [59, (c) => c.options.push({ type: 4, name: 'count', description: 'How many', required: false }), ['options[1]']],
  [67, (c) => (c.options[0].max_length = 50), ['options[0].max_length']],
  [
    75,
    (c) => {
      c.options[0].name = 'words';
      c.description = 'Two fields at once';
    },
    ['description', 'options[0].name'],
  ],
];

describe('bulk overwrite dry run', () => {
  let server: TestServer;

  before(async () => {
    server = await injectServer();
  });
  after(() => server.close());

  for (const [label, base, scope] of [
    ['global', GLOBAL_BASE, { applicationId: DEMO_APP_ID, guildId: null }],
    ['guild', GUILD_BASE, { applicationId: DEMO_APP_ID, guildId: TEST_GUILD_ID }],
  ] as const) {
    test(`${label}: 100 commands, 10 changed: exactly those 10 with their fields; the store untouched`, async () => {
      const deployed = await server.request('PUT', base, {
        auth: BOT,
        body: Array.from({ length: COMMANDS }, (_, i) => command(i)),
      });
      assert.equal(deployed.status, 200, deployed.text);
      const ids = new Map<string, string>(deployed.body.map((c: Json) => [c.name, c.id]));

      const edited = Array.from({ length: COMMANDS }, (_, i) => command(i));
      for (const [index, edit] of EDITS) edit(edited[index]!);

      const listBefore = (await server.request('GET', `${base}?with_localizations=true`, { auth: BOT })).text;
      const plainBefore = (await server.request('GET', base, { auth: BOT })).text;
      const countBefore = await server.slashd.store.commands.countCreatesToday(scope);
      assert.equal(countBefore, COMMANDS);

      const dry = await server.request('PUT', `${base}?dry_run=true`, { auth: BOT, body: edited });
      assert.equal(dry.status, 200, dry.text);
      const diff = dry.body;
      assert.deepEqual(
        diff.changed.map((c: Json) => [c.id, c.name, c.fields]),
        EDITS.map(([index, , fields]) => [ids.get(command(index).name), command(index).name, fields]),
      );
      for (const changed of diff.changed) assert.match(changed.version, /^\d+$/);
      assert.equal(diff.unchanged.length, COMMANDS - EDITS.length);
      assert.deepEqual(diff.added, []);
      assert.deepEqual(diff.removed, []);
      assert.equal(diff.ids_kept.length, COMMANDS);
      assert.equal(diff.version_bumps, EDITS.length);
      assert.deepEqual(diff.daily_creates, { would_use: 0, used_today: COMMANDS, left_after: 100, limit: 200 });
      assert.equal(diff.changes, true);

      // Nothing was written: the same bytes, the same counter.
      assert.equal((await server.request('GET', `${base}?with_localizations=true`, { auth: BOT })).text, listBefore);
      assert.equal((await server.request('GET', base, { auth: BOT })).text, plainBefore);
      assert.equal(await server.slashd.store.commands.countCreatesToday(scope), countBefore);
    });
  }

  test('additions and removals, ids kept, and the creates an overwrite would use', async () => {
    const body = Array.from({ length: 5 }, (_, i) => command(i));
    const deployed = await server.request('PUT', GLOBAL_BASE, { auth: BOT, body });
    assert.equal(deployed.status, 200);
    const next = [...body.slice(1), command(500), command(501)];
    const dry = (await server.request('PUT', `${GLOBAL_BASE}?dry_run=True`, { auth: BOT, body: next })).body;
    assert.deepEqual(
      dry.added.map((c: Json) => [c.id, c.name, c.type]),
      [
        [null, 'command-500', 1],
        [null, 'command-501', 1],
      ],
    );
    assert.deepEqual(
      dry.removed.map((c: Json) => c.id),
      [deployed.body[0].id],
    );
    assert.deepEqual(
      dry.ids_kept,
      deployed.body.slice(1).map((c: Json) => c.id),
    );
    assert.equal(dry.daily_creates.would_use, 2);
    assert.equal(dry.daily_creates.left_after, 200 - dry.daily_creates.used_today - 2);
    // The same body again is no change at all.
    const same = (await server.request('PUT', `${GLOBAL_BASE}?dry_run=1`, { auth: BOT, body })).body;
    assert.equal(same.changes, false);
    assert.equal(same.unchanged.length, 5);
  });

  test('dry_run=false overwrites; any other value is 50035 at dry_run and writes nothing', async () => {
    const before = (await server.request('GET', GLOBAL_BASE, { auth: BOT })).text;
    for (const value of ['yes', '', '2', 'TRUE']) {
      const refused = await server.request('PUT', `${GLOBAL_BASE}?dry_run=${value}`, { auth: BOT, body: [command(9)] });
      assert.equal(refused.status, 400, value);
      assert.equal(refused.body.code, 50035);
      assert.equal(refused.body.errors.dry_run._errors[0].code, 'DRY_RUN_INVALID');
    }
    assert.equal((await server.request('GET', GLOBAL_BASE, { auth: BOT })).text, before);
    const applied = await server.request('PUT', `${GLOBAL_BASE}?dry_run=false`, { auth: BOT, body: [command(9)] });
    assert.equal(applied.status, 200);
    assert.deepEqual(
      applied.body.map((c: Json) => c.name),
      ['command-009'],
    );
  });

  test('a dry run refuses what the overwrite would refuse, with the same error', async () => {
    const invalid = await server.request('PUT', `${GLOBAL_BASE}?dry_run=true`, {
      auth: BOT,
      body: [{ name: 'Bad Name', description: 'x' }],
    });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.code, 50035);
    const unauthenticated = await server.request('PUT', `${GLOBAL_BASE}?dry_run=true`, { body: [] });
    assert.equal(unauthenticated.status, 401);
  });
});
