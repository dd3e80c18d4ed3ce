/**
 * v10 rate limits as a raw client meets them (fetch on a loopback server, ignoring every header):
 * the headers on each reply, errors included, and the exact 429 bodies and headers. The clock is
 * injected, so windows end only when the test moves it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { main } from '../src/cli/main.js';
import { bucketOf } from '../src/core/rate-limits/buckets.js';
import { majorValues } from '../src/http/rate-limits.js';
import { V10_PRESET, type RateLimitPreset } from '../src/core/rate-limits/presets.js';
import { CLI, killAll, startChild } from './helpers/cli-process.js';
import { injectServer, type TestServer } from './helpers/server.js';
import { ADMIN_TOKEN, BOT, DEMO_APP_ID, GLOBAL_BASE, GUILD_BASE, OTHER_BOT_TOKEN } from './helpers/world.js';

const START = 1_750_000_000_000;
const RATE_LIMITED = 'You are being rate limited.';

/** v10's routes with a global limit of 3, so the global 429 is reached in a few requests. */
const TIGHT_GLOBAL: RateLimitPreset = { ...V10_PRESET, name: 'tight-global', global: { limit: 3, windowMs: 1_000 } };

function rateHeaders(headers: Headers): Record<string, string> {
  const seen: Record<string, string> = {};
  for (const [name, value] of headers) if (name.startsWith('x-ratelimit') || name === 'retry-after') seen[name] = value;
  return seen;
}

describe('rate limits: the v10 preset, as a raw client meets it', () => {
  let server: TestServer;
  let clock = START;
  before(async () => {
    server = await injectServer({ now: () => clock, config: { rateLimits: { preset: 'v10' } } });
  });
  after(() => server.close());

  test('each reply reports its bucket; the sixth read in 5 s is a 429 with exact body and headers', async () => {
    const hash = bucketOf('GET', '/applications/:applicationId/commands').hash;
    for (let i = 0; i < 5; i++) {
      const response = await server.request('GET', GLOBAL_BASE, { auth: BOT });
      assert.equal(response.status, 200);
      assert.deepEqual(rateHeaders(response.headers), {
        'x-ratelimit-limit': '5',
        'x-ratelimit-remaining': String(4 - i),
        'x-ratelimit-reset': ((START + 5_000) / 1000).toFixed(3),
        'x-ratelimit-reset-after': '5.000',
        'x-ratelimit-bucket': hash,
      });
    }
    clock += 1_250;
    const refused = await server.request('GET', GLOBAL_BASE, { auth: BOT });
    assert.equal(refused.status, 429);
    assert.equal(refused.text, JSON.stringify({ message: RATE_LIMITED, code: 0, retry_after: 3.75, global: false }));
    assert.equal(await refusalsCounted(server, 'user'), 1);
    assert.equal(refused.headers.get('content-type'), 'application/json');
    assert.deepEqual(rateHeaders(refused.headers), {
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': ((START + 5_000) / 1000).toFixed(3),
      'x-ratelimit-reset-after': '3.750',
      'x-ratelimit-bucket': hash,
      'x-ratelimit-scope': 'user',
      'retry-after': '4',
    });
    clock = START + 5_000;
    const again = await server.request('GET', GLOBAL_BASE, { auth: BOT });
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('x-ratelimit-remaining'), '4');
    assert.equal(again.headers.get('x-ratelimit-reset'), ((START + 10_000) / 1000).toFixed(3));
  });

  test('v9 and v10 share a bucket; another route, guild or bot has its own counter', async () => {
    clock = START + 60_000;
    const v9 = await server.request('GET', `${server.url}/api/v9${GLOBAL_BASE}`, { auth: BOT });
    const v10 = await server.request('GET', GLOBAL_BASE, { auth: BOT });
    assert.equal(v9.headers.get('x-ratelimit-bucket'), v10.headers.get('x-ratelimit-bucket'));
    assert.equal(v10.headers.get('x-ratelimit-remaining'), '3');
    const guild = await server.request('GET', GUILD_BASE, { auth: BOT });
    assert.notEqual(guild.headers.get('x-ratelimit-bucket'), v10.headers.get('x-ratelimit-bucket'));
    assert.equal(guild.headers.get('x-ratelimit-remaining'), '4');
    const other = await server.request('GET', `/applications/${DEMO_APP_ID}/commands`, {
      auth: `Bot ${OTHER_BOT_TOKEN}`,
    });
    // The other bot is refused (403) but counted in its own window.
    assert.equal(other.headers.get('x-ratelimit-remaining'), '4');
  });

  test("HEAD shares its GET's bucket and counter", async () => {
    clock = START + 90_000;
    const get = await server.request('GET', GLOBAL_BASE, { auth: BOT });
    const head = await server.request('HEAD', GLOBAL_BASE, { auth: BOT });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('x-ratelimit-bucket'), get.headers.get('x-ratelimit-bucket'));
    assert.equal(get.headers.get('x-ratelimit-remaining'), '4');
    assert.equal(head.headers.get('x-ratelimit-remaining'), '3');
  });

  test('error replies carry the headers too, and count', async () => {
    clock = START + 120_000;
    const unknown = await server.request('GET', `${GLOBAL_BASE}/1`, { auth: BOT });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.headers.get('x-ratelimit-limit'), '5');
    assert.equal(unknown.headers.get('x-ratelimit-remaining'), '4');
    const invalid = await server.request('POST', GLOBAL_BASE, { auth: BOT, body: { name: 'Bad Name' } });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.headers.get('x-ratelimit-limit'), '5');
    assert.equal(invalid.headers.get('x-ratelimit-reset-after'), '20.000');
  });

  test('command writes: 5 per 20 s, then 429', async () => {
    clock = START + 180_000;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await server.request('POST', GLOBAL_BASE, {
        auth: BOT,
        body: { name: `cmd-${i}`, description: 'A command' },
      });
      statuses.push(response.status);
    }
    assert.deepEqual(statuses, [201, 201, 201, 201, 201, 429]);
  });

  test('the admin API and health probes are never limited', async () => {
    clock = START + 240_000;
    for (let i = 0; i < 30; i++) {
      const health = await server.request('GET', `${server.url}/healthz`);
      assert.equal(health.status, 200);
      assert.equal(health.headers.get('x-ratelimit-limit'), null);
      const admin = await server.request('GET', `${server.url}/admin/world`, { auth: `Bearer ${ADMIN_TOKEN}` });
      assert.equal(admin.status, 200);
      assert.equal(admin.headers.get('x-ratelimit-limit'), null);
    }
  });
});

/** The `slashd_rate_limited_total` sample of `scope` in the server's /metrics (0 when absent). */
async function refusalsCounted(server: TestServer, scope: string): Promise<number> {
  const response = await server.request('GET', `${server.url}/metrics`, { auth: `Bearer ${ADMIN_TOKEN}` });
  assert.equal(response.status, 200, response.text);
  const line = response.text.split('\n').find((l) => l.startsWith(`slashd_rate_limited_total{scope="${scope}"} `));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
}

describe('rate limits: the global limit', () => {
  let server: TestServer;
  let clock = START;
  before(async () => {
    server = await injectServer({ now: () => clock, config: { rateLimits: { preset: TIGHT_GLOBAL } } });
  });
  after(() => server.close());

  test('over the per-bot global limit: a global 429, across routes', async () => {
    const routes = [GLOBAL_BASE, GUILD_BASE, '/users/@me'];
    for (const route of routes) assert.equal((await server.request('GET', route, { auth: BOT })).status, 200);
    clock += 400;
    const refused = await server.request('GET', '/applications/@me', { auth: BOT });
    assert.equal(refused.status, 429);
    assert.equal(refused.text, JSON.stringify({ message: RATE_LIMITED, code: 0, retry_after: 0.6, global: true }));
    assert.equal(await refusalsCounted(server, 'global'), 1);
    assert.deepEqual(rateHeaders(refused.headers), {
      'x-ratelimit-global': 'true',
      'x-ratelimit-scope': 'global',
      'retry-after': '1',
    });
  });

  test('interaction callbacks and webhooks are outside the global limit, keyed by their path', async () => {
    const callback = `/interactions/1345183757107299999/some-token/callback`;
    const first = await server.request('POST', callback, { body: { type: 1 } });
    assert.notEqual(first.status, 429);
    assert.equal(first.headers.get('x-ratelimit-limit'), '5');
    assert.equal(first.headers.get('x-ratelimit-remaining'), '4');
    const otherToken = await server.request('POST', `/interactions/1345183757107299999/other/callback`, {
      body: { type: 1 },
    });
    assert.equal(otherToken.headers.get('x-ratelimit-remaining'), '4');
    const webhook = await server.request('POST', `/webhooks/${DEMO_APP_ID}/some-token`, { body: { content: 'x' } });
    assert.notEqual(webhook.status, 429);
    assert.equal(webhook.headers.get('x-ratelimit-reset-after'), '2.000');
  });
});

describe('rate limits: counters out of reach', () => {
  let server: TestServer;
  let calls = 0;
  before(async () => {
    const counters = {
      hit: () => {
        calls++;
        return Promise.reject(new Error('connection refused'));
      },
      close: async () => undefined,
    };
    server = await injectServer({ config: { rateLimits: { preset: 'v10', counters } } });
  });
  after(() => server.close());

  test('requests go through, unlimited and without bucket headers', async () => {
    for (let i = 0; i < 8; i++) {
      const response = await server.request('GET', GLOBAL_BASE, { auth: BOT });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('x-ratelimit-limit'), null);
    }
    assert.equal(calls, 8);
  });
});

describe('rate limits: a Redis that refuses connections', () => {
  let server: TestServer;
  before(async () => {
    // Port 1 on loopback: nothing listens, so every connection attempt is refused at once.
    server = await injectServer({ config: { rateLimits: { preset: 'v10', redis: 'redis://127.0.0.1:1' } } });
  });
  after(() => server.close());

  test('requests go through, unlimited, with a real client that gives up instead of queueing', async () => {
    for (let i = 0; i < 8; i++) {
      const response = await server.request('GET', GLOBAL_BASE, { auth: BOT });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('x-ratelimit-limit'), null);
    }
  });
});

describe('rate limits: off', () => {
  let server: TestServer;
  before(async () => {
    server = await injectServer({ config: { rateLimits: { preset: 'off' } } });
  });
  after(() => server.close());

  test('no headers and no 429', async () => {
    for (let i = 0; i < 60; i++) {
      const response = await server.request('GET', GLOBAL_BASE, { auth: BOT });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('x-ratelimit-limit'), null);
    }
  });
});

describe('rate limits: slashd serve', () => {
  const dir = mkdtempSync(join(tmpdir(), 'slashd-rate-limits-'));
  after(() => {
    killAll();
    rmSync(dir, { recursive: true, force: true });
  });

  async function readsLimit(args: string[], env: Record<string, string> = {}): Promise<string | null> {
    const db = join(dir, `${args.join('-') || 'default'}.sqlite`);
    const child = startChild(process.execPath, [CLI, 'serve', '--db', db, '--demo', '--port', '0', ...args], env);
    try {
      const [, url] = await child.waitForLine(/listening on (http:\/\/\S+)/);
      const response = await fetch(`${url}/api/v10/users/@me`, { headers: { authorization: BOT } });
      assert.equal(response.status, 200);
      return response.headers.get('x-ratelimit-limit');
    } finally {
      await child.stop();
    }
  }

  test('sandbox by default; --rate-limits and SLASHD_RATE_LIMITS choose another preset', async () => {
    assert.equal(await readsLimit([]), '500');
    assert.equal(await readsLimit(['--rate-limits', 'v10']), '5');
    assert.equal(await readsLimit(['--rate-limits', 'off']), null);
    assert.equal(await readsLimit([], { SLASHD_RATE_LIMITS: 'v10' }), '5');
  });

  test('an unknown preset is a usage error before starting', async () => {
    const errors: string[] = [];
    const status = await main(['serve', '--db', ':memory:', '--rate-limits', 'fast'], {
      log: () => undefined,
      error: (line) => errors.push(line),
    });
    assert.equal(status, 2);
    assert.match(errors[0] ?? '', /--rate-limits is one of sandbox, v10, off, not 'fast'/);
  });
});

describe('rate limits: callers without a token behind a load balancer', () => {
  const clock = START;
  /** Two clients' GET /gateway through one proxy on loopback; the remaining count of each reply. */
  async function twoClients(server: TestServer): Promise<string[]> {
    const remaining: string[] = [];
    for (const client of ['203.0.113.1', '203.0.113.2']) {
      const response = await server.request('GET', '/gateway', { headers: { 'x-forwarded-for': client } });
      assert.equal(response.status, 200);
      remaining.push(response.headers.get('x-ratelimit-remaining') ?? 'none');
    }
    return remaining;
  }

  test('with --trust-proxy naming the proxy, each forwarded address has its own bucket', async () => {
    const server = await injectServer({
      now: () => clock,
      config: { rateLimits: { preset: 'v10' }, trustProxy: '127.0.0.1,::1' },
    });
    try {
      assert.deepEqual(await twoClients(server), ['4', '4']);
    } finally {
      await server.close();
    }
  });

  test('with a hop count too', async () => {
    const server = await injectServer({ now: () => clock, config: { rateLimits: { preset: 'v10' }, trustProxy: 1 } });
    try {
      assert.deepEqual(await twoClients(server), ['4', '4']);
    } finally {
      await server.close();
    }
  });

  test('without it, X-Forwarded-For is ignored: every client of the proxy shares its bucket', async () => {
    const server = await injectServer({ now: () => clock, config: { rateLimits: { preset: 'v10' } } });
    try {
      assert.deepEqual(await twoClients(server), ['4', '3']);
    } finally {
      await server.close();
    }
  });

  test('the OAuth2 token routes count per address, not per the client id anyone can name', async () => {
    const server = await injectServer({ now: () => clock, config: { rateLimits: { preset: 'v10' }, trustProxy: 1 } });
    const token = (clientId: string, address: string) =>
      server.request('POST', '/oauth2/token', {
        auth: `Basic ${Buffer.from(`${clientId}:wrong-secret`).toString('base64')}`,
        headers: { 'x-forwarded-for': address, 'content-type': 'application/x-www-form-urlencoded' },
        rawBody: 'grant_type=client_credentials&scope=applications.commands.update',
      });
    try {
      const first = await token(DEMO_APP_ID, '203.0.113.1');
      assert.equal(first.status, 401, first.text);
      assert.equal(first.headers.get('x-ratelimit-remaining'), '4');
      assert.equal((await token(DEMO_APP_ID, '203.0.113.2')).headers.get('x-ratelimit-remaining'), '4');
      assert.equal((await token('1345183757107299999', '203.0.113.1')).headers.get('x-ratelimit-remaining'), '3');
    } finally {
      await server.close();
    }
  });
});

describe('rate limits: counter keys', () => {
  test('a major parameter that is not a snowflake goes in as a short digest; a snowflake as it is', () => {
    const spec = bucketOf('POST', '/api/v10/interactions/:interactionId/:token/callback');
    const long = majorValues(spec, { params: { interactionId: 'x'.repeat(1_000), token: 't'.repeat(1_000) } });
    assert.ok(long.length <= 60, `${long.length} characters`);
    assert.notEqual(
      long,
      majorValues(spec, { params: { interactionId: 'y'.repeat(1_000), token: 't'.repeat(1_000) } }),
    );
    const snowflake = majorValues(spec, { params: { interactionId: '1345183757107299999', token: 'abc' } });
    assert.ok(snowflake.startsWith('1345183757107299999:'), snowflake);
  });
});
