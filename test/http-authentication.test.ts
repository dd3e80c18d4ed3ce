/**
 * Authentication happens once per request, in one hook: every guarded route looks its token up
 * exactly once (the guards and handlers read `request.principal`), and unguarded routes never look
 * one up. That no other module calls `authenticate` is a lint rule (eslint.config.js).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createSlashd, type Slashd } from '../src/app.js';
import {
  ADMIN_TOKEN,
  ALICE_TOKEN,
  BOT,
  DEMO_APP_ID,
  GENERAL,
  OTHER_BOT_TOKEN,
  TEST_GUILD_ID,
  exampleWorld,
} from './helpers/world.js';

const ALICE_PERM_TOKEN = 'alice-perm-token';

/** The store's token lookups, each counted. */
const LOOKUPS = ['findUserByToken', 'findApplicationByBotToken', 'findOAuth2Token'] as const;
type Lookup = (typeof LOOKUPS)[number];

describe('authentication once per request', () => {
  let dir: string;
  let slashd: Slashd;
  const counts = new Map<Lookup, number>();

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slashd-auth-'));
    slashd = await createSlashd({ db: join(dir, 'slashd.sqlite'), world: exampleWorld(), adminToken: ADMIN_TOKEN });
    // Own properties shadow the store's methods; the authentication hook calls them through the same object.
    const store = slashd.store.world as unknown as Record<Lookup, (...args: unknown[]) => Promise<unknown>>;
    for (const name of LOOKUPS) {
      const original = store[name].bind(store);
      store[name] = (...args) => {
        counts.set(name, (counts.get(name) ?? 0) + 1);
        return original(...args);
      };
    }
  });
  after(async () => {
    await slashd.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The request's status and how many token lookups it caused. */
  async function call(
    method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH',
    url: string,
    authorization?: string,
    payload?: unknown,
  ): Promise<{ status: number; lookups: number }> {
    counts.clear();
    const response = await slashd.server.inject({
      method,
      url,
      headers: authorization ? { authorization } : {},
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    const lookups = [...counts.values()].reduce((sum, n) => sum + n, 0);
    return { status: response.statusCode, lookups };
  }

  const api = '/api/v10';
  const commands = `${api}/applications/${DEMO_APP_ID}/commands`;
  const guildCommands = `${api}/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`;
  const guarded: [string, Parameters<typeof call>, number][] = [
    ['a user on /users/@me', ['GET', `${api}/users/@me`, ALICE_TOKEN], 200],
    ['a user on HEAD /users/@me (the route Fastify adds for a GET)', ['HEAD', `${api}/users/@me`, ALICE_TOKEN], 200],
    ['a bot on its global commands', ['GET', commands, BOT], 200],
    ['a bot on its guild commands', ['GET', guildCommands, BOT], 200],
    ['a bot creating a guild command', ['POST', guildCommands, BOT, { name: 'ping', description: 'Ping' }], 201],
    ['a bearer on guild permissions', ['GET', `${guildCommands}/permissions`, `Bearer ${ALICE_PERM_TOKEN}`], 200],
    [
      'a bearer editing permissions',
      ['PUT', `${guildCommands}/${DEMO_APP_ID}/permissions`, `Bearer ${ALICE_PERM_TOKEN}`, { permissions: [] }],
      200,
    ],
    ['a user on the command index', ['GET', `${api}/channels/${GENERAL}/application-command-index`, ALICE_TOKEN], 200],
    ['a bot on channel messages', ['GET', `${api}/channels/${GENERAL}/messages`, BOT], 200],
    ['a bot on /applications/@me', ['GET', `${api}/applications/@me`, BOT], 200],
    ['a bot editing /applications/@me', ['PATCH', `${api}/applications/@me`, BOT, {}], 200],
    ['a user invoking with a bad body', ['POST', `${api}/interactions`, ALICE_TOKEN, {}], 400],
    ['a bot refused on a user route', ['POST', `${api}/interactions`, BOT, {}], 401],
    ['an unknown token', ['GET', `${api}/users/@me`, 'not-a-token'], 401],
    ['another app on this app', ['GET', commands, `Bot ${OTHER_BOT_TOKEN}`], 403],
  ];
  for (const [name, args, status] of guarded) {
    test(`${name}: one token lookup, answered ${status}`, async () => {
      const result = await call(...args);
      assert.deepEqual(result, { status, lookups: 1 });
    });
  }

  const unguarded: [string, Parameters<typeof call>, number][] = [
    ['no token on a guarded route', ['GET', `${api}/users/@me`], 401],
    ['the admin API', ['GET', '/admin/world', `Bearer ${ADMIN_TOKEN}`], 200],
    ['a webhook with a bot token', ['GET', `${api}/webhooks/${DEMO_APP_ID}/nope/messages/@original`, BOT], 404],
    ['the health probe', ['GET', '/healthz', ALICE_TOKEN], 200],
  ];
  for (const [name, args, status] of unguarded) {
    test(`${name}: no token lookup, answered ${status}`, async () => {
      const result = await call(...args);
      assert.deepEqual(result, { status, lookups: 0 });
    });
  }
});
