/**
 * The command endpoints over raw HTTP: statuses, response shapes (the OpenAPI schemas), version
 * rules, upserts, unknown commands, the per-type limits (30032) and the daily create limit
 * (30034), which survives a restart and holds under concurrent creates.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  assertErrorBody,
  assertWireCommand,
  assertWireCommands,
  withSchemaChecks,
} from '../../../test/helpers/openapi.js';
import { injectServer, type TestResponse, type TestServer } from '../../../test/helpers/server.js';
import {
  ACTIVITY_APP_ID,
  ACTIVITY_BOT_TOKEN,
  BOT,
  ADMIN_TOKEN,
  DEMO_APP_ID,
  GLOBAL_BASE,
  GUILD_BASE,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';
import type { Json } from '../../../test/helpers/json.js';

const GLOBAL = { applicationId: DEMO_APP_ID, guildId: null };
const GUILD = { applicationId: DEMO_APP_ID, guildId: TEST_GUILD_ID };

function chat(name: string, description = `The ${name} command`): Json {
  return { name, description };
}

function expectError(response: TestResponse, status: number, code: number): void {
  assert.equal(response.status, status, response.text);
  assertErrorBody(response.status, response.body);
  assert.equal(response.body.code, code, response.text);
}

async function fullList(server: { request: TestServer['request'] }, base: string): Promise<Json[]> {
  const response = await server.request('GET', `${base}?with_localizations=true`, { auth: BOT });
  assert.equal(response.status, 200);
  return response.body;
}

describe('create, get, list, edit, delete', () => {
  let server: TestServer;
  before(async () => {
    server = withSchemaChecks(await injectServer());
  });
  after(async () => {
    await server.close();
  });

  for (const [label, base, expected] of [
    ['global', GLOBAL_BASE, GLOBAL],
    ['guild', GUILD_BASE, GUILD],
  ] as const) {
    test(`${label}: the round trip with statuses and shapes`, async () => {
      const created = await server.request('POST', base, {
        auth: BOT,
        body: {
          name: 'weather',
          description: 'Shows the weather',
          name_localizations: { fr: 'meteo' },
          options: [
            { type: 3, name: 'city', description: 'City', required: true, min_length: 1, max_length: 50 },
            { type: 10, name: 'days', description: 'Days', min_value: 1, max_value: 7.5 },
            { type: 7, name: 'channel', description: 'Channel', channel_types: [0, 5] },
            {
              type: 4,
              name: 'unit',
              description: 'Unit',
              choices: [
                { name: 'Celsius', value: 1 },
                { name: 'Fahrenheit', value: 2 },
              ],
            },
          ],
          default_member_permissions: '8',
          nsfw: false,
        },
      });
      assert.equal(created.status, 201, created.text);
      assertWireCommand(created.body, expected);
      const c = created.body;
      assert.equal(c.type, 1, 'type defaults to CHAT_INPUT');
      assert.deepEqual(c.name_localizations, { fr: 'meteo' });
      assert.equal(c.description_localizations, null);
      assert.equal(c.default_member_permissions, '8');
      assert.equal(c.options.length, 4);
      assert.equal(c.options[1].max_value, 7.5);

      const got = await server.request('GET', `${base}/${c.id}`, { auth: BOT });
      assert.equal(got.status, 200);
      assertWireCommand(got.body, expected);
      assert.deepEqual(got.body, c);

      const listed = await server.request('GET', base, { auth: BOT, headers: { 'x-discord-locale': 'fr' } });
      assert.equal(listed.status, 200);
      assertWireCommands(listed.body, { ...expected, view: 'list' });
      const inList = listed.body.find((x: Json) => x.id === c.id)!;
      assert.equal(inList.name_localized, 'meteo', 'the list carries the requester locale');
      assert.equal(inList.name_localizations, undefined, 'and not the dictionaries');

      const withDictionaries = await server.request('GET', `${base}?with_localizations=true`, { auth: BOT });
      assertWireCommands(withDictionaries.body, expected);
      assert.deepEqual(
        withDictionaries.body.find((x: Json) => x.id === c.id),
        c,
      );

      const deleted = await server.request('DELETE', `${base}/${c.id}`, { auth: BOT });
      assert.equal(deleted.status, 204);
      assert.equal(deleted.text, '');
      expectError(await server.request('GET', `${base}/${c.id}`, { auth: BOT }), 404, 10063);
      expectError(await server.request('DELETE', `${base}/${c.id}`, { auth: BOT }), 404, 10063);
    });

    test(`${label}: upsert by name and type: 201, then 200 with the same id; version moves only on change`, async () => {
      const first = await server.request('POST', base, { auth: BOT, body: chat('upsert') });
      assert.equal(first.status, 201);
      const same = await server.request('POST', base, { auth: BOT, body: chat('upsert') });
      assert.equal(same.status, 200);
      assertWireCommand(same.body, expected);
      assert.equal(same.body.id, first.body.id);
      assert.equal(same.body.version, first.body.version, 'an identical overwrite keeps the version');

      // Key order and defaults written out do not make a change.
      const spelledOut = await server.request('POST', base, {
        auth: BOT,
        body: {
          description: 'The upsert command',
          type: 1,
          name: 'upsert',
          options: [],
          nsfw: false,
          default_member_permissions: null,
        },
      });
      assert.equal(spelledOut.status, 200);
      assert.equal(spelledOut.body.version, first.body.version, 'defaults spelled out are no change');

      const changed = await server.request('POST', base, { auth: BOT, body: chat('upsert', 'Changed') });
      assert.equal(changed.status, 200);
      assert.equal(changed.body.id, first.body.id);
      assert.ok(BigInt(changed.body.version) > BigInt(first.body.version), 'a change moves the version forward');

      const list = await fullList(server, base);
      assert.equal(list.filter((x) => x.name === 'upsert').length, 1, 'one command, not two');

      const user = await server.request('POST', base, { auth: BOT, body: { name: 'upsert', type: 2 } });
      assert.equal(user.status, 201, 'same name, other type: a new command');
      assertWireCommand(user.body, expected);
      assert.equal(user.body.description, '');
      assert.notEqual(user.body.id, first.body.id);
    });

    test(`${label}: PATCH rules`, async () => {
      const created = (
        await server.request('POST', base, {
          auth: BOT,
          body: { ...chat('editable'), nsfw: true, options: [{ type: 5, name: 'flag', description: 'A flag' }] },
        })
      ).body;
      const path = `${base}/${created.id}`;

      const renamed = await server.request('PATCH', path, { auth: BOT, body: { name: 'edited' } });
      assert.equal(renamed.status, 200, renamed.text);
      assertWireCommand(renamed.body, expected);
      assert.equal(renamed.body.id, created.id);
      assert.equal(renamed.body.name, 'edited');
      assert.equal(renamed.body.nsfw, true, 'fields not provided are kept');
      assert.equal(renamed.body.options.length, 1);
      assert.notEqual(renamed.body.version, created.version);

      const identical = await server.request('PATCH', path, { auth: BOT, body: { name: 'edited', nsfw: true } });
      assert.equal(identical.status, 200);
      assert.equal(identical.body.version, renamed.body.version, 'no change, no new version');

      const sameType = await server.request('PATCH', path, { auth: BOT, body: { type: 1, description: 'With type' } });
      assert.equal(sameType.status, 200, `the same type is ignored: ${sameType.text}`);
      assert.equal(sameType.body.type, 1);
      assert.equal(sameType.body.description, 'With type');

      const before = await fullList(server, base);
      const otherType = await server.request('PATCH', path, { auth: BOT, body: { type: 2 } });
      assert.equal(otherType.status, 400, otherType.text);
      assertErrorBody(otherType.status, otherType.body);
      assert.deepEqual(await fullList(server, base), before, 'a refused PATCH changes nothing');

      const replacedOptions = await server.request('PATCH', path, {
        auth: BOT,
        body: { options: [{ type: 4, name: 'count', description: 'Count' }] },
      });
      assert.equal(replacedOptions.status, 200);
      assert.deepEqual(
        replacedOptions.body.options.map((o: Json) => o.name),
        ['count'],
        'options replaced whole, not merged',
      );

      const nulled = await server.request('PATCH', path, { auth: BOT, body: { default_member_permissions: 32 } });
      assert.equal(nulled.status, 200, nulled.text);
      assert.equal(nulled.body.default_member_permissions, '32', 'an integer is returned as a string');

      await server.request('POST', base, { auth: BOT, body: chat('taken') });
      const before2 = await fullList(server, base);
      expectError(await server.request('PATCH', path, { auth: BOT, body: { name: 'taken' } }), 400, 40041);
      assert.deepEqual(await fullList(server, base), before2);
    });
  }

  test('10063 for unknown ids, malformed ids, and commands of another scope or app', async () => {
    const global = (await server.request('POST', GLOBAL_BASE, { auth: BOT, body: chat('globalonly') })).body;
    const guild = (await server.request('POST', GUILD_BASE, { auth: BOT, body: chat('guildonly') })).body;
    const launch = (
      await server.request('GET', `/applications/${ACTIVITY_APP_ID}/commands`, { auth: `Bot ${ACTIVITY_BOT_TOKEN}` })
    ).body.find((c: Json) => c.type === 4);
    assert.ok(launch, 'the activity app has its entry point');
    const beforeGlobal = await fullList(server, GLOBAL_BASE);
    const beforeGuild = await fullList(server, GUILD_BASE);

    const cases: [string, string][] = [
      ['an unknown snowflake (global)', `${GLOBAL_BASE}/1234567890123456789`],
      ['an unknown snowflake (guild)', `${GUILD_BASE}/1234567890123456789`],
      ['a malformed id', `${GLOBAL_BASE}/not-an-id`],
      ['an id beyond 64 bits', `${GLOBAL_BASE}/99999999999999999999`],
      ['a global command under the guild path', `${GUILD_BASE}/${global.id}`],
      ['a guild command under the global path', `${GLOBAL_BASE}/${guild.id}`],
      ["another app's command", `${GLOBAL_BASE}/${launch.id}`],
    ];
    for (const [label, path] of cases) {
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { description: 'x' }],
        ['DELETE', undefined],
      ] as const) {
        const response = await server.request(method, path, { auth: BOT, body });
        assert.equal(response.status, 404, `${method} ${label}: ${response.text}`);
        assertErrorBody(response.status, response.body);
        assert.equal(response.body.code, 10063, `${method} ${label}`);
      }
    }
    assert.deepEqual(await fullList(server, GLOBAL_BASE), beforeGlobal);
    assert.deepEqual(await fullList(server, GUILD_BASE), beforeGuild);
    const stillLaunch = await server.request('GET', `/applications/${ACTIVITY_APP_ID}/commands/${launch.id}`, {
      auth: `Bot ${ACTIVITY_BOT_TOKEN}`,
    });
    assert.equal(stillLaunch.status, 200);
  });
});

describe('per-type limits (30032)', () => {
  let server: TestServer;
  before(async () => {
    server = withSchemaChecks(await injectServer());
  });
  after(async () => {
    await server.close();
  });

  test('the 16th USER command of a guild: 400 30032; overwriting an existing one still works', async () => {
    const users = Array.from({ length: 15 }, (_, i) => ({ name: `User Cmd ${i}`, type: 2 }));
    const put = await server.request('PUT', GUILD_BASE, { auth: BOT, body: users });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.length, 15);
    const before = await fullList(server, GUILD_BASE);

    expectError(
      await server.request('POST', GUILD_BASE, { auth: BOT, body: { name: 'User Cmd 15', type: 2 } }),
      400,
      30032,
    );
    assert.deepEqual(await fullList(server, GUILD_BASE), before);

    // Other types are counted apart.
    const message = await server.request('POST', GUILD_BASE, { auth: BOT, body: { name: 'Msg Cmd', type: 3 } });
    assert.equal(message.status, 201);
    const upsert = await server.request('POST', GUILD_BASE, {
      auth: BOT,
      body: { name: 'User Cmd 3', type: 2, nsfw: true },
    });
    assert.equal(upsert.status, 200, 'an overwrite is not a new command');
  });

  test('the 16th global MESSAGE command: 400 30032', async () => {
    const messages = Array.from({ length: 15 }, (_, i) => ({ name: `Msg ${i}`, type: 3 }));
    assert.equal((await server.request('PUT', GLOBAL_BASE, { auth: BOT, body: messages })).status, 200);
    const before = await fullList(server, GLOBAL_BASE);
    expectError(
      await server.request('POST', GLOBAL_BASE, { auth: BOT, body: { name: 'Msg 15', type: 3 } }),
      400,
      30032,
    );
    assert.deepEqual(await fullList(server, GLOBAL_BASE), before);
  });

  test('a bulk list over a type limit is refused whole', async () => {
    const before = await fullList(server, GUILD_BASE);
    const tooManyUsers = [chat('fine'), ...Array.from({ length: 16 }, (_, i) => ({ name: `U${i}`, type: 2 }))];
    expectError(await server.request('PUT', GUILD_BASE, { auth: BOT, body: tooManyUsers }), 400, 30032);
    assert.deepEqual(await fullList(server, GUILD_BASE), before);

    const tooManyChat = Array.from({ length: 101 }, (_, i) => chat(`c${i}`));
    expectError(await server.request('PUT', GUILD_BASE, { auth: BOT, body: tooManyChat }), 400, 30032);
    assert.deepEqual(await fullList(server, GUILD_BASE), before);

    // More than 130 items: refused whatever the types.
    const tooLong = Array.from({ length: 131 }, (_, i) => ({ name: `Item ${i}`, type: 2 + (i % 2) }));
    const refused = await server.request('PUT', GUILD_BASE, { auth: BOT, body: tooLong });
    assert.equal(refused.status, 400, refused.text.slice(0, 300));
    assertErrorBody(refused.status, refused.body);
    assert.deepEqual(await fullList(server, GUILD_BASE), before);

    const exactly = [
      ...Array.from({ length: 100 }, (_, i) => chat(`c${i}`)),
      ...Array.from({ length: 15 }, (_, i) => ({ name: `U${i}`, type: 2 })),
      ...Array.from({ length: 15 }, (_, i) => ({ name: `M${i}`, type: 3 })),
    ];
    const full = await server.request('PUT', GUILD_BASE, { auth: BOT, body: exactly });
    assert.equal(full.status, 200, `130 commands at every limit are fine: ${full.text.slice(0, 300)}`);
    assert.equal(full.body.length, 130);
    expectError(await server.request('POST', GUILD_BASE, { auth: BOT, body: chat('c100') }), 400, 30032);
  });
});

// ---- the daily create limit -------------------------------------------------------------------

/** Noon UTC of a fixed day: the tests stay inside one UTC day whatever the wall clock says. */
const FIXED_NOON = Date.UTC(2031, 4, 14, 12, 0, 0);
const DAY_MS = 86_400_000;

/** A slashd on `db` whose clock runs from noon of the fixed day (plus `dayOffset` days). */
async function startDayServer(db: string, dayOffset = 0): Promise<TestServer> {
  const origin = Date.now();
  const now = () => FIXED_NOON + dayOffset * DAY_MS + (Date.now() - origin);
  return withSchemaChecks(await injectServer({ db, now }));
}

function names(prefix: string, count: number): Json[] {
  return Array.from({ length: count }, (_, i) => chat(`${prefix}${i}`));
}

function expectDailyLimit(response: TestResponse): void {
  expectError(response, 429, 30034);
  // v10's message, then how to lift the limit or reset the count.
  assert.match(response.body.message, /^Max number of daily application command creates has been reached \(\d+\) /);
  assert.match(response.body.message, /--daily-command-creates/);
  assert.match(response.body.message, new RegExp(`DELETE /admin/applications/${DEMO_APP_ID}/command-creates`));
  assert.equal(typeof response.body.retry_after, 'number');
  assert.ok(
    response.body.retry_after > 0 && response.body.retry_after <= 86_400,
    `retry_after ${response.body.retry_after}`,
  );
  assert.equal(response.body.global, false);
  assert.ok(response.headers.get('retry-after'), 'a Retry-After header');
}

describe('the daily create limit (30034)', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'slashd-daily-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  test('200 creates in a guild (bulk creates count), then 429; it survives a restart; a new day resets it', async () => {
    const db = join(dir, 'daily.sqlite');
    let server = await startDayServer(db);
    try {
      const first = await server.request('PUT', GUILD_BASE, { auth: BOT, body: names('a', 100) });
      assert.equal(first.status, 200, first.text.slice(0, 300));
      const second = await server.request('PUT', GUILD_BASE, { auth: BOT, body: names('b', 100) });
      assert.equal(second.status, 200, second.text.slice(0, 300));
      const before = await fullList(server, GUILD_BASE);
      assert.equal(before.length, 100);

      // A USER command: the guild already has 100 CHAT_INPUT commands, and the type limit (30032)
      // is checked before the daily limit.
      expectDailyLimit(await server.request('POST', GUILD_BASE, { auth: BOT, body: { name: 'One More', type: 2 } }));
      expectDailyLimit(
        await server.request('PUT', GUILD_BASE, { auth: BOT, body: [...names('b', 99), chat('new-in-bulk')] }),
      );
      assert.deepEqual(await fullList(server, GUILD_BASE), before, 'refused creates change nothing');

      // Overwrites, edits and deletes are not creates.
      const overwrite = await server.request('POST', GUILD_BASE, { auth: BOT, body: chat('b0', 'Still allowed') });
      assert.equal(overwrite.status, 200);
      const renameInBulk = await server.request('PUT', GUILD_BASE, {
        auth: BOT,
        body: [{ ...chat('b0-renamed'), id: overwrite.body.id }, ...names('b', 100).slice(1)],
      });
      assert.equal(renameInBulk.status, 200, 'a rename by id is not a create');
      // Other scopes have their own count.
      assert.equal((await server.request('POST', GLOBAL_BASE, { auth: BOT, body: chat('global-ok') })).status, 201);

      await server.close();
      server = await startDayServer(db);
      expectDailyLimit(
        await server.request('POST', GUILD_BASE, { auth: BOT, body: { name: 'After Restart', type: 3 } }),
      );
      // Deleting does not give creates back.
      assert.equal((await server.request('PUT', GUILD_BASE, { auth: BOT, body: [] })).status, 200);
      expectDailyLimit(await server.request('POST', GUILD_BASE, { auth: BOT, body: chat('after-delete') }));
      await server.close();

      server = await startDayServer(db, 1);
      const nextDay = await server.request('POST', GUILD_BASE, { auth: BOT, body: chat('next-day') });
      assert.equal(nextDay.status, 201, 'a new UTC day, a new count');
    } finally {
      await server.close();
    }
  });

  test("an admin's DELETE /admin/applications/{id}/command-creates starts the day's count afresh", async () => {
    const server = await startDayServer(join(dir, 'reset.sqlite'));
    try {
      assert.equal((await server.request('PUT', GUILD_BASE, { auth: BOT, body: names('a', 100) })).status, 200);
      assert.equal((await server.request('PUT', GUILD_BASE, { auth: BOT, body: names('b', 100) })).status, 200);
      expectDailyLimit(await server.request('POST', GUILD_BASE, { auth: BOT, body: { name: 'Late', type: 2 } }));
      const admin = { auth: `Bearer ${ADMIN_TOKEN}` };
      const path = (id: string) => `${server.url}/admin/applications/${id}/command-creates`;
      const refused = await server.request('DELETE', path(DEMO_APP_ID), { auth: BOT });
      assert.equal(refused.status, 401, 'the admin token only');
      const unknown = await server.request('DELETE', path('1'), admin);
      assert.equal(unknown.status, 404);
      const reset = await server.request('DELETE', path(DEMO_APP_ID), admin);
      assert.equal(reset.status, 204, reset.text);
      const created = await server.request('POST', GUILD_BASE, { auth: BOT, body: { name: 'Late', type: 2 } });
      assert.equal(created.status, 201, created.text);
      assert.equal((await fullList(server, GUILD_BASE)).length, 101, 'the commands stayed');
    } finally {
      await server.close();
    }
  });

  test('dailyCommandCreates: a lower limit, or none (`--daily-command-creates off`)', async () => {
    const limited = withSchemaChecks(await injectServer({ config: { dailyCommandCreates: 2 } }));
    try {
      assert.equal((await limited.request('PUT', GUILD_BASE, { auth: BOT, body: names('a', 2) })).status, 200);
      const third = await limited.request('POST', GUILD_BASE, { auth: BOT, body: chat('c') });
      expectDailyLimit(third);
      assert.match(third.body.message, /reached \(2\)/);
    } finally {
      await limited.close();
    }
    // Without the schema checks: a dry run's answer is slashd's own shape (docs/faults.md).
    const unlimited = await injectServer({ config: { dailyCommandCreates: null } });
    try {
      for (const prefix of ['a', 'b', 'c'])
        assert.equal((await unlimited.request('PUT', GUILD_BASE, { auth: BOT, body: names(prefix, 100) })).status, 200);
      const dry = await unlimited.request('PUT', `${GUILD_BASE}?dry_run=true`, { auth: BOT, body: names('d', 100) });
      assert.equal(dry.status, 200, dry.text.slice(0, 300));
      assert.equal(dry.body.daily_creates.limit, null);
    } finally {
      await unlimited.close();
    }
  });

  test('parallel creates around the limit: exactly the allowed number succeed', async () => {
    const server = await startDayServer(join(dir, 'parallel.sqlite'));
    try {
      assert.equal((await server.request('PUT', GUILD_BASE, { auth: BOT, body: names('a', 100) })).status, 200);
      assert.equal((await server.request('PUT', GUILD_BASE, { auth: BOT, body: names('b', 80) })).status, 200);
      assert.equal((await server.request('PUT', GUILD_BASE, { auth: BOT, body: [] })).status, 200);
      // 180 creates counted, none left in the guild: 20 more may be created today.
      const responses = await Promise.all(
        Array.from({ length: 40 }, (_, i) => server.request('POST', GUILD_BASE, { auth: BOT, body: chat(`p${i}`) })),
      );
      const created = responses.filter((r) => r.status === 201);
      const refused = responses.filter((r) => r.status === 429);
      assert.equal(created.length, 20, `statuses: ${responses.map((r) => r.status).join(',')}`);
      assert.equal(refused.length, 20);
      for (const r of refused) expectDailyLimit(r);
      const list = await fullList(server, GUILD_BASE);
      assert.deepEqual(list.map((c) => c.id).sort(), created.map((r) => r.body.id).sort());
    } finally {
      await server.close();
    }
  });

  test('parallel creates of one name: one 201, the rest 200 with the same id', async () => {
    const server = await startDayServer(join(dir, 'same-name.sqlite'));
    try {
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => server.request('POST', GUILD_BASE, { auth: BOT, body: chat('racy') })),
      );
      assert.equal(responses.filter((r) => r.status === 201).length, 1);
      assert.equal(responses.filter((r) => r.status === 200).length, 19);
      assert.equal(new Set(responses.map((r) => r.body.id)).size, 1);
      assert.equal((await fullList(server, GUILD_BASE)).length, 1);
    } finally {
      await server.close();
    }
  });
});
