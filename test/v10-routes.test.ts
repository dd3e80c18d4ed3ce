/**
 * Routes slashd does not serve (issue 23, item 6): the v10 route table is the public OpenAPI
 * document's (test/fixtures/openapi/), a request is named by its v10 template without its ids or
 * tokens, the 404 (or 405) says what slashd does not serve in the v10 body, and each such route is
 * logged once at warn level, with bounded memory.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { V10_ROUTES } from '../src/core/v10-routes/templates.js';
import {
  describeRoute,
  UNKNOWN_PATH_SEGMENTS_MAX,
  UNKNOWN_SEGMENT_LENGTH_MAX,
} from '../src/core/v10-routes/describe.js';
import { UnservedRouteLog, UNSERVED_ROUTES_LOGGED_MAX } from '../src/http/not-found.js';
import { injectServer, type TestServer } from './helpers/server.js';
import { BOT, DEMO_APP_ID, TEST_GUILD_ID } from './helpers/world.js';

type Json = any;

const OPENAPI = new URL('../../test/fixtures/openapi/openapi.json', import.meta.url);
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** `{guild_id}` → `{guild.id}`, `{webhook_token}` → `{webhook.token}`, `{user_id_1}` → `{user_1.id}`. */
function documentedName(template: string): string {
  return template.replace(
    /\{(\w+?)_(id|token)(?:_(\d+))?\}/g,
    (_whole, subject: string, field: string, index: string | undefined) =>
      `{${subject}${index === undefined ? '' : `_${index}`}.${field}}`,
  );
}

function routesOfDocument(): [string, string][] {
  const document = JSON.parse(readFileSync(OPENAPI, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(document.paths).map(([template, operations]) => [
    documentedName(template),
    METHODS.filter((method) => method in operations)
      .map((method) => method.toUpperCase())
      .join(' '),
  ]);
}

describe('the v10 route table', () => {
  test('is the OpenAPI document, route for route', () => {
    const expected = routesOfDocument();
    assert.deepEqual(
      V10_ROUTES,
      expected,
      'src/core/v10-routes/templates.ts is out of date; paste this as V10_ROUTES:\n' +
        expected.map(([template, methods]) => `  ['${template}', '${methods}'],`).join('\n'),
    );
    assert.ok(V10_ROUTES.length > 100);
  });
});

describe('describeRoute', () => {
  test('a v10 route is named by its template: no id or token of the request', () => {
    assert.deepEqual(describeRoute('GET', `/guilds/${TEST_GUILD_ID}/audit-logs`, true), {
      route: 'GET /guilds/{guild.id}/audit-logs',
      v10Path: true,
      v10Method: true,
    });
    const withToken = describeRoute('POST', '/webhooks/123/secret-webhook-token/slack', true);
    assert.equal(withToken.route, 'POST /webhooks/{webhook.id}/{webhook.token}/slack');
    assert.equal(describeRoute('GET', '/guilds/1/audit-logs/', true).route, 'GET /guilds/{guild.id}/audit-logs');
  });

  test('a literal wins over a placeholder (@me), HEAD counts as GET, and another method is not v10', () => {
    assert.equal(describeRoute('GET', '/users/@me/guilds', true).route, 'GET /users/@me/guilds');
    assert.equal(describeRoute('GET', '/users/123', true).route, 'GET /users/{user.id}');
    assert.equal(describeRoute('HEAD', '/guilds/1/audit-logs', true).v10Method, true);
    assert.deepEqual(describeRoute('POST', '/guilds/1/audit-logs', true), {
      route: 'POST /guilds/{guild.id}/audit-logs',
      v10Path: true,
      v10Method: false,
    });
  });

  test('a path that is no v10 route: ids as {id}, long or unusual segments masked, length bounded', () => {
    assert.equal(describeRoute('GET', '/applications/123/nope', true).route, 'GET /applications/{id}/nope');
    const token = 'a'.repeat(UNKNOWN_SEGMENT_LENGTH_MAX + 1);
    assert.equal(
      describeRoute('GET', `/interactions/1/${token}/callbackx`, true).route,
      'GET /interactions/{id}/{…}/callbackx',
    );
    assert.equal(describeRoute('GET', '/x/a%2Fb/<script>', true).route, 'GET /x/{…}/{…}');
    const deep = `/${Array.from({ length: UNKNOWN_PATH_SEGMENTS_MAX + 5 }, () => 'seg').join('/')}`;
    const named = describeRoute('GET', deep, true).route;
    assert.equal(named.split('/').length, UNKNOWN_PATH_SEGMENTS_MAX + 2, named);
    assert.ok(named.endsWith('/…'));
    // Outside the API no template applies, even where the path looks like one.
    assert.equal(describeRoute('GET', '/guilds/1/audit-logs', false).route, 'GET /guilds/{id}/audit-logs');
  });
});

describe('UnservedRouteLog', () => {
  test('each route once; past the cap, one line says so and nothing more is kept', () => {
    const log = new UnservedRouteLog(2);
    assert.equal(log.note('GET /a'), 'first');
    assert.equal(log.note('GET /a'), null);
    assert.equal(log.note('GET /b'), 'first');
    assert.equal(log.note('GET /c'), 'full');
    assert.equal(log.note('GET /d'), null);
    assert.equal(log.note('GET /a'), null);
    assert.equal(UNSERVED_ROUTES_LOGGED_MAX, 256);
  });
});

describe('through the routes: the message and the warn-once log', () => {
  let server: TestServer;
  const lines: Json[] = [];
  const warnings = () => lines.filter((line) => line.level === 40);

  before(async () => {
    server = await injectServer({
      config: {
        logLevel: 'warn',
        logDestination: {
          write(text: string) {
            for (const line of text.split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line));
          },
        },
      },
    });
  });
  after(() => server.close());

  test('a v10 route slashd does not serve: 404 in the v10 shape, naming the route; logged once', async () => {
    for (const guild of [TEST_GUILD_ID, '1345183757107209999', TEST_GUILD_ID]) {
      const response = await server.request('GET', `/guilds/${guild}/integrations?limit=5`, { auth: BOT });
      assert.equal(response.status, 404, response.text);
      assert.deepEqual(response.body, {
        message: '404: Not Found (slashd does not serve GET /guilds/{guild.id}/integrations)',
        code: 0,
      });
    }
    // Unversioned and v9 paths are the same route.
    await server.request('GET', `${server.url}/api/guilds/${TEST_GUILD_ID}/integrations`, { auth: BOT });
    await server.request('GET', `${server.url}/api/v9/guilds/${TEST_GUILD_ID}/integrations`, { auth: BOT });
    const logged = warnings().filter((line) => line.route === 'GET /guilds/{guild.id}/integrations');
    assert.equal(logged.length, 1, JSON.stringify(warnings()));
    assert.equal(logged[0].msg, 'slashd does not serve GET /guilds/{guild.id}/integrations (a v10 route)');
  });

  test('a path that is no v10 route: 404 saying so; logged once; no token in the body or the log', async () => {
    const secret = 'x'.repeat(60);
    for (let i = 0; i < 2; i++) {
      const response = await server.request('POST', `/interactions/123/${secret}/callbackx`, { body: {} });
      assert.equal(response.status, 404, response.text);
      assert.deepEqual(response.body, {
        message: '404: Not Found (slashd does not serve POST /interactions/{id}/{…}/callbackx, and neither does v10)',
        code: 0,
      });
    }
    const logged = warnings().filter((line) => String(line.route).includes('callbackx'));
    assert.equal(logged.length, 1);
    assert.equal(logged[0].msg, 'slashd does not serve POST /interactions/{id}/{…}/callbackx (not a v10 route either)');
    assert.ok(!lines.some((line) => JSON.stringify(line).includes(secret)), 'the token is in no log line');
  });

  test('on a path slashd serves, every method v10 serves there is served (no 405); one v10 does not serve: plain 405', async () => {
    // Since issue 37 no v10 path is served in part: a 405 naming a v10 method would be a gap.
    const partial: string[] = [];
    for (const [template, methods] of V10_ROUTES) {
      const path = template.replace(/\{[^}]+\}/g, TEST_GUILD_ID);
      for (const method of methods.split(' ')) {
        const answer = await server.request(method, path, { auth: BOT });
        if (answer.status === 405) partial.push(`${method} ${template}: ${String(answer.body.message)}`);
      }
    }
    assert.deepEqual(partial, []);
    const del = await server.request('DELETE', '/users/@me', { auth: BOT });
    assert.deepEqual(del.body, { message: '405: Method Not Allowed', code: 0 });
    assert.ok(!warnings().some((line) => line.route === 'DELETE /users/@me'), 'v10 would refuse it too: no warning');
  });

  test('paths outside the API are named but not logged; other versions are still 50041', async () => {
    const response = await server.request('GET', `${server.url}/nothing-here`, {});
    assert.deepEqual(response.body, { message: '404: Not Found (slashd does not serve GET /nothing-here)', code: 0 });
    assert.ok(!warnings().some((line) => String(line.route).includes('nothing-here')));
    const v8 = await server.request('GET', `${server.url}/api/v8/applications/${DEMO_APP_ID}/commands`, { auth: BOT });
    assert.equal(v8.status, 400);
    assert.equal(v8.body.code, 50041);
  });
});
