/**
 * Hostile keys (`__proto__`, `constructor`, `prototype`, and names Object.prototype already has)
 * thrown into every free-form object of every endpoint that takes a body: command localizations at
 * every level, choices, bulk items, permission overwrites, invocations, callbacks, webhook
 * messages, the admin world import and PATCH /applications/@me. Whatever one request sends, no
 * 5xx, Object.prototype gains nothing, and another app's error body stays byte-identical.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { injectServer, type TestServer } from './helpers/server.js';
import {
  ADMIN_TOKEN,
  ALICE_TOKEN,
  BOT,
  DEMO_APP_ID,
  GENERAL,
  OTHER_APP_ID,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
} from './helpers/world.js';
import { invocationBody } from './helpers/invocation.js';

const JSON_HEADERS = { 'content-type': 'application/json' };
/** Runs of the property: each is two requests; bounded so the file stays well under 20 s. */
const RUNS = 600;

/** Keys with meaning to JavaScript objects, and an ordinary locale so some maps are partly valid. */
const hostileKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'valueOf',
  '__defineGetter__',
  'isPrototypeOf',
  'fr',
  '_errors',
);

/** A JSON object text (not a JS object: a JS literal cannot hold an own "__proto__") with hostile keys, nested. */
const hostileDict: fc.Arbitrary<string> = fc.letrec<{ dict: string; value: string }>((tie) => ({
  dict: fc
    .array(fc.tuple(hostileKey, tie('value')), { minLength: 1, maxLength: 4 })
    .map((entries) => `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`),
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('"x"', '"polluted"', '1', 'true', 'null', '[]'),
    tie('dict'),
  ),
})).dict;

interface Target {
  name: string;
  method: string;
  path: string;
  auth: string | null;
  body: (dict: string) => string;
}

/** Another app's validation error: the body a polluted process would change. */
function otherAppsBadCommand(server: TestServer) {
  return server.request('POST', `/applications/${OTHER_APP_ID}/commands`, {
    auth: `Bot ${OTHER_BOT_TOKEN}`,
    body: {
      name: 'Bad Name',
      description: '',
      options: [{ type: 3, name: 'o', description: 'd', choices: [{ name: '', value: 'v' }] }],
    },
  });
}

function ownPrototypeKeys(): string[] {
  return Reflect.ownKeys(Object.prototype).map(String).sort();
}

describe('hostile keys in every free-form object', () => {
  let server: TestServer;
  let baseline = '';
  const targets: Target[] = [];
  const cleanPrototype = ownPrototypeKeys();

  before(async () => {
    // A stopped clock: the interaction's 3 s answer deadline never passes, however slow the machine.
    const start = Date.now();
    server = await injectServer({ now: () => start });
    const guildCommands = `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`;
    const created = await server.request('POST', guildCommands, {
      auth: BOT,
      body: {
        name: 'pick',
        description: 'Pick',
        options: [{ type: 3, name: 'o', description: 'd', choices: [{ name: 'a', value: 'a' }] }],
      },
    });
    assert.equal(created.status, 201, created.text);
    const command = created.body as { id: string; version: string };
    const invoked = await server.request('POST', '/interactions', {
      auth: ALICE_TOKEN,
      body: invocationBody({ ...command, name: 'pick' }, { data: { options: [{ name: 'o', type: 3, value: 'a' }] } }),
    });
    assert.equal(invoked.status, 200, invoked.text);
    const stored = await server.slashd.store.interactions.getInteraction(DEMO_APP_ID, invoked.body.id);
    assert.ok(stored);
    const webhook = `/webhooks/${DEMO_APP_ID}/${stored.token}`;
    const admin = `Bearer ${ADMIN_TOKEN}`;
    const option = (d: string) =>
      `{"type":3,"name":"o","description":"d","name_localizations":${d},"description_localizations":${d},"choices":[{"name":"a","value":"a","name_localizations":${d}}]}`;
    const command_ = (d: string) =>
      `{"name":"c","description":"d","name_localizations":${d},"description_localizations":${d},"options":[${option(d)}]}`;
    const subcommand = (d: string) =>
      `{"name":"g","description":"d","options":[{"type":2,"name":"grp","description":"d","name_localizations":${d},"options":[{"type":1,"name":"sub","description":"d","description_localizations":${d},"options":[${option(d)}]}]}]}`;
    targets.push(
      { name: 'create', method: 'POST', path: `/applications/${DEMO_APP_ID}/commands`, auth: BOT, body: command_ },
      { name: 'create nested', method: 'POST', path: guildCommands, auth: BOT, body: subcommand },
      { name: 'create, dict as body', method: 'POST', path: guildCommands, auth: BOT, body: (d) => d },
      {
        name: 'edit',
        method: 'PATCH',
        path: `${guildCommands}/${command.id}`,
        auth: BOT,
        body: (d) => `{"name_localizations":${d},"options":[${option(d)}]}`,
      },
      {
        name: 'bulk',
        method: 'PUT',
        path: guildCommands,
        auth: BOT,
        body: (d) => `[${command_(d)},${subcommand(d)},${d}]`,
      },
      {
        name: 'permissions',
        method: 'PUT',
        path: `${guildCommands}/${command.id}/permissions`,
        auth: 'Bearer alice-perm-token',
        body: (d) => `{"permissions":[${d},{"id":"${TEST_GUILD_ID}","type":1,"permission":true,"x":${d}}]}`,
      },
      {
        name: 'permissions, dict as body',
        method: 'PUT',
        path: `${guildCommands}/${command.id}/permissions`,
        auth: 'Bearer alice-perm-token',
        body: (d) => d,
      },
      {
        name: 'invocation',
        method: 'POST',
        path: '/interactions',
        auth: ALICE_TOKEN,
        body: (d) =>
          `{"type":2,"application_id":"${DEMO_APP_ID}","guild_id":"${TEST_GUILD_ID}","channel_id":"${GENERAL}","data":{"id":"${command.id}","name":"pick","type":1,"version":"${command.version}","options":[{"name":"o","type":3,"value":"a","x":${d}},${d}],"resolved":${d}},"x":${d}}`,
      },
      {
        name: 'invocation, dict as data',
        method: 'POST',
        path: '/interactions',
        auth: ALICE_TOKEN,
        body: (d) => `{"type":2,"application_id":"${DEMO_APP_ID}","channel_id":"${GENERAL}","data":${d}}`,
      },
      {
        name: 'callback',
        method: 'POST',
        path: `/interactions/${stored.id}/${stored.token}/callback`,
        auth: null,
        // Components are checked field by field: the dict rides in keys they do not read, so a
        // benign one still answers (and acknowledges, which the webhook targets need).
        body: (d) =>
          `{"type":4,"data":{"content":"x","allowed_mentions":${d},"embeds":[${d}],"components":[{"type":1,"x":${d},"components":[{"type":2,"style":1,"custom_id":"b","x":${d}}]}],"x":${d}}}`,
      },
      {
        name: 'callback, dict as data',
        method: 'POST',
        path: `/interactions/${stored.id}/${stored.token}/callback`,
        auth: null,
        body: (d) => `{"type":4,"data":${d}}`,
      },
      {
        name: 'webhook',
        method: 'POST',
        path: webhook,
        auth: null,
        body: (d) => `{"content":"x","allowed_mentions":${d},"embeds":[${d}]}`,
      },
      { name: 'webhook, dict as body', method: 'POST', path: webhook, auth: null, body: (d) => d },
      { name: 'edit original', method: 'PATCH', path: `${webhook}/messages/@original`, auth: null, body: (d) => d },
      {
        name: 'admin world merge',
        method: 'POST',
        path: `${server.url}/admin/world`,
        auth: admin,
        body: (d) => `{"users":[${d}],"guilds":[${d}],"applications":[${d}],"x":${d}}`,
      },
      {
        name: 'admin world merge, dict as body',
        method: 'POST',
        path: `${server.url}/admin/world`,
        auth: admin,
        body: (d) => d,
      },
      {
        name: 'admin user',
        method: 'PUT',
        path: `${server.url}/admin/users/1335036896870400099`,
        auth: admin,
        body: (d) => d,
      },
      {
        name: 'current application',
        method: 'PATCH',
        path: '/applications/@me',
        auth: BOT,
        body: (d) => `{"tags":${d},"install_params":${d},"integration_types_config":${d},"x":${d}}`,
      },
      {
        name: 'current application, dict as body',
        method: 'PATCH',
        path: '/applications/@me',
        auth: BOT,
        body: (d) => d,
      },
    );
    const first = await otherAppsBadCommand(server);
    assert.equal(first.status, 400);
    baseline = first.text;
  });
  after(() => server.close());

  it("no 5xx, Object.prototype untouched, and another app's error body byte-identical to the baseline", async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), hostileDict, async (pick, dict) => {
        const target = targets[pick % targets.length]!;
        const rawBody = target.body(dict);
        const response = await server.request(target.method, target.path, {
          auth: target.auth,
          rawBody,
          headers: JSON_HEADERS,
        });
        assert.ok(response.status < 500, `${target.name}: ${rawBody} → ${response.status} ${response.text}`);
        assert.deepEqual(ownPrototypeKeys(), cleanPrototype, `${target.name}: ${rawBody} added to Object.prototype`);
        assert.deepEqual(Object.keys(Object.prototype), []);
        const later = await otherAppsBadCommand(server);
        assert.equal(later.text, baseline, `${target.name}: ${rawBody} changed another app's error body`);
      }),
      { numRuns: RUNS },
    );
  });

  it('every target was reachable: each answers a well-formed body with something other than 401/404', async () => {
    // Guards the property above against testing nothing (a wrong path or token answers 401/404 for every body).
    for (const target of targets) {
      const response = await server.request(target.method, target.path, {
        auth: target.auth,
        rawBody: target.body('{"fr":"x"}'),
        headers: JSON_HEADERS,
      });
      assert.ok(![401, 404, 405].includes(response.status), `${target.name} → ${response.status} ${response.text}`);
    }
  });
});
