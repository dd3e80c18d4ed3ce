/**
 * The contract's reference world (test/fixtures/world.example.json, the world contract's example) loads as is, a server
 * started with it serves, and it is the base of the built-in demo world of `npm start`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parseWorld } from '../../core/world/parse.js';
import type { World } from '../../core/world/types.js';
import { DEMO_WORLD } from '../../world/demo-world.js';
import { assertMatchesSchema, fixturePath, withSchemaChecks } from '../../../test/helpers/openapi.js';
import { injectServer } from '../../../test/helpers/server.js';
import type { Json } from '../../../test/helpers/json.js';

function readExample(): Json {
  return JSON.parse(readFileSync(fixturePath('world.example.json'), 'utf8')) as Json;
}

function parsed(value: unknown): World {
  const result = parseWorld(value);
  assert.ok(result.ok, `the world parses: ${JSON.stringify(!result.ok && result.issues)}`);
  return result.value;
}

describe('the reference world', () => {
  test('world.example.json parses as is, and keeps every declared value', () => {
    const raw = readExample();
    const world = parsed(raw);
    assert.equal(world.applications.length, raw.applications.length);
    assert.equal(world.users.length, raw.users.length);
    assert.equal(world.guilds.length, raw.guilds.length);
    assert.equal(world.oauth2_tokens.length, raw.oauth2_tokens.length);
    // Every field the file declares comes through unchanged (defaults only fill what is absent).
    const sameWhereDeclared = (declared: Json, loaded: Json, path: string): void => {
      for (const [key, value] of Object.entries(declared)) {
        if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
          sameWhereDeclared(value, loaded[key], `${path}.${key}`);
        } else if (Array.isArray(value) && value.some((v) => v !== null && typeof v === 'object')) {
          value.forEach((item, i) => sameWhereDeclared(item, loaded[key][i], `${path}.${key}.${i}`));
        } else {
          assert.deepEqual(loaded[key], value, `${path}.${key}`);
        }
      }
    };
    sameWhereDeclared(raw, world, 'world');
  });

  test('it equals the built-in demo world', () => {
    const raw = readExample();
    assert.deepEqual(DEMO_WORLD, raw, 'src/world/demo-world.ts is a verbatim copy of the contract example');
    assert.deepEqual(parsed(structuredClone(DEMO_WORLD)), parsed(raw));
  });

  test('a server started with it serves every app, user token and install', async () => {
    const raw = readExample();
    const server = withSchemaChecks(await injectServer({ world: parsed(raw) }));
    try {
      for (const app of raw.applications) {
        const me = await server.request('GET', '/users/@me', { auth: `Bot ${app.bot_token}` });
        assert.equal(me.status, 200, me.text);
        assertMatchesSchema('UserPIIResponse', me.body);
        assert.equal(me.body.id, app.id);
        assert.equal(me.body.username, app.name);
        const list = await server.request('GET', `/applications/${app.id}/commands`, { auth: `Bot ${app.bot_token}` });
        assert.equal(list.status, 200);
        const entryPoints = list.body.filter((c: Json) => c.type === 4);
        assert.equal(
          entryPoints.length,
          (app.flags & 131072) !== 0 ? 1 : 0,
          `${app.name}: an entry point iff EMBEDDED`,
        );
      }
      for (const user of raw.users) {
        const me = await server.request('GET', '/users/@me', { auth: user.token });
        assert.equal(me.status, 200, `${user.username}: ${me.text}`);
        assert.equal(me.body.id, user.id);
        assert.equal(me.body.locale, user.locale);
      }
      for (const token of raw.oauth2_tokens) {
        const me = await server.request('GET', '/users/@me', { auth: `Bearer ${token.access_token}` });
        assert.equal(me.status, 200, `${token.access_token}: ${me.text}`);
        const app = raw.applications.find((a: Json) => a.id === token.application_id);
        assert.equal(me.body.id, token.user_id ?? app.owner_id);
      }
      for (const guild of raw.guilds) {
        for (const app of raw.applications) {
          const installed = (guild.installs as Json[]).some(
            (i) =>
              i.application_id === app.id && (i.scopes.includes('applications.commands') || i.scopes.includes('bot')),
          );
          const response = await server.request('GET', `/applications/${app.id}/guilds/${guild.id}/commands`, {
            auth: `Bot ${app.bot_token}`,
          });
          assert.equal(response.status, installed ? 200 : 403, `${app.name} in ${guild.name}`);
        }
      }
    } finally {
      await server.close();
    }
  });
});
