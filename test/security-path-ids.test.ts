/**
 * Issue 35 item 8, through real HTTP on PostgreSQL and SQLite: every route with an id in its path,
 * read from the server's own route table (so a new route is covered without naming it here), is
 * sent junk in each id (a NUL byte, letters, a sign, 25 digits, 2^64) and answers the route's
 * unknown-object error, never a 5xx; a query or body id with a NUL byte is a 50035 at its field,
 * and a stored text with a NUL byte reads back.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ERRORS } from '../src/core/io/errors.js';
import { pathIdRoutes } from '../src/http/path-ids.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from './helpers/postgres.js';
import { startServer, type TestServer } from './helpers/server.js';
import {
  ADMIN_AUTH,
  ALICE_ID,
  ALICE_TOKEN,
  BOT,
  DEMO_APP_ID,
  GENERAL,
  HELLO_MESSAGE,
  MODERATOR_ROLE,
  NOBODY,
  TEST_GUILD_ID,
} from './helpers/world.js';

/** Ids no store may ever be asked about, as they travel in a path. */
const JUNK = ['1%00', 'abc', '-1', '1234567890123456789012345', '18446744073709551616'];

/** A real value for each parameter that is not the one under test. */
const VALID: Readonly<Record<string, string>> = {
  channelId: GENERAL,
  guildId: TEST_GUILD_ID,
  userId: ALICE_ID,
  messageId: HELLO_MESSAGE,
  applicationId: DEMO_APP_ID,
  roleId: MODERATOR_ROLE,
  token: 'not-a-token',
  emoji: '%F0%9F%91%8D',
  filename: 'a.txt',
};

/** The v10 routes (their /api/v9 and /api twins are the same plugins) and the root ones. */
const served = (url: string): boolean => url.startsWith('/api/v10/') || !url.startsWith('/api/');

function pathWith(url: string, junkParam: string, junk: string): string {
  return url.replace(/:([A-Za-z]+)/g, (_match, name: string) => (name === junkParam ? junk : (VALID[name] ?? NOBODY)));
}

for (const store of ['postgresql', 'sqlite'] as const) {
  describe(`path ids are snowflakes, checked before any store (${store})`, () => {
    let server: TestServer;
    const schema = freshSchemaName('slashd_path_ids');

    before(async () => {
      server = await startServer(
        store === 'postgresql' ? { db: postgresConnectionString, config: { dbSchema: schema } } : {},
      );
    });
    after(async () => {
      await server.close();
      if (store === 'postgresql') await dropSchema(schema);
    });

    test('the route table holds the routes the issue found answering 500', () => {
      const urls = new Set(pathIdRoutes(server.slashd.server).map((route) => route.url));
      for (const url of [
        '/api/v10/channels/:channelId/messages',
        '/api/v10/guilds/:guildId/members',
        '/api/v10/channels/:channelId/messages/:messageId/reactions/:emoji',
        '/api/v10/channels/:channelId/pins',
        '/api/v10/channels/:channelId/thread-members/:userId',
        '/attachments/:channelId/:attachmentId/:filename',
        '/admin/applications/:id',
        '/console/api/guilds/:guildId/channels',
        '/api/v10/interactions/:interactionId',
      ]) {
        assert.ok(urls.has(url), url);
      }
    });

    test('every id of every route, with junk: the route answers its refusal, never a 5xx', async () => {
      const routes = pathIdRoutes(server.slashd.server).filter((r) => r.method !== 'HEAD' && served(r.url));
      assert.ok(routes.length > 100, `only ${routes.length} routes`);
      let sent = 0;
      for (const route of routes) {
        for (const id of route.ids) {
          for (const junk of JUNK) {
            const path = pathWith(route.url, id.name, junk);
            const target = path.startsWith('/api/v10/') ? path.slice('/api/v10'.length) : `${server.url}${path}`;
            const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
            const callers = path.startsWith('/admin/') ? [ADMIN_AUTH] : [BOT, ALICE_TOKEN];
            for (const auth of callers) {
              const response = await server.request(route.method, target, { auth, body });
              sent++;
              const where = `${route.method} ${route.url} (${id.name} = ${junk}, ${auth.slice(0, 5)})`;
              assert.ok(response.status < 500, `${where}: ${response.status} ${response.text}`);
              // A token of the wrong kind is refused first, as before; otherwise the id's own refusal.
              if (response.status === 401) continue;
              if (id.error === null) {
                assert.equal(response.status, 400, where);
                assert.equal(response.body.code, ERRORS.InvalidFormBody.code, where);
              } else {
                assert.deepEqual(
                  { status: response.status, code: response.body?.code },
                  { status: ERRORS[id.error].status, code: ERRORS[id.error].code },
                  `${where}: ${response.text}`,
                );
              }
            }
          }
        }
      }
      assert.ok(sent > 1000, `${sent} requests`);
    });

    test('an unauthenticated request with a junk id is still a 401', async () => {
      const response = await server.request('GET', '/channels/1%00/messages', { auth: null });
      assert.equal(response.status, 401);
    });

    test('a NUL byte in a query id is a 50035 at its name', async () => {
      for (const [path, field] of [
        [`/channels/${GENERAL}/messages?after=1%00`, 'after'],
        [`/channels/${GENERAL}/messages?around=%00`, 'around'],
        [`/guilds/${TEST_GUILD_ID}/members?after=1%00`, 'after'],
      ] as const) {
        const response = await server.request('GET', path, { auth: BOT });
        assert.equal(response.status, 400, `${path}: ${response.text}`);
        assert.equal(response.body.code, ERRORS.InvalidFormBody.code);
        assert.ok(response.body.errors[field], `${path}: ${response.text}`);
      }
    });

    test('a NUL byte in a body id is refused, in stored text it reads back', async () => {
      const refused = await server.request('POST', `/channels/${GENERAL}/messages`, {
        auth: BOT,
        body: { content: 'x', message_reference: { message_id: `${HELLO_MESSAGE}\u0000` } },
      });
      assert.ok(refused.status >= 400 && refused.status < 500, refused.text);
      const written = await server.request('POST', `/channels/${GENERAL}/messages`, {
        auth: BOT,
        body: { content: 'a\u0000b', nonce: 'n\u0000' },
      });
      assert.equal(written.status, 200, written.text);
      const thread = await server.request('POST', `/channels/${GENERAL}/threads`, {
        auth: ALICE_TOKEN,
        body: { name: 'a\u0000', type: 11 },
      });
      assert.equal(thread.status, 201, thread.text);
      const history = await server.request('GET', `/channels/${GENERAL}/messages`, { auth: BOT });
      assert.equal(history.status, 200, history.text);
      assert.ok(history.body.some((message: { content: string }) => message.content === 'a\u0000b'));
      const threadRead = await server.request('GET', `/channels/${thread.body.id}`, { auth: ALICE_TOKEN });
      assert.equal(threadRead.status, 200, threadRead.text);
      assert.equal(threadRead.body.name, 'a\u0000');
    });
  });
}
