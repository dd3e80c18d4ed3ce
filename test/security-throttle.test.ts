/**
 * Issue 21, defects 3 and 4, as an attacker tries them through real sockets: wrong tokens and
 * secrets are throttled per source address (20 a minute by default, then v10's 429 for every
 * credential from that address, a valid one too), a valid credential from another address is never
 * refused, and wrong client secrets under an app's id no longer lock the real client out of the
 * token endpoint. Addresses are real: requests leave from 127.0.0.2, 127.0.0.3, ... (or come
 * through a trusted proxy's X-Forwarded-For); with two nodes the counts are shared through Redis.
 * The clock is injected, so a window ends only when the test moves it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { DEFAULT_FAILED_CREDENTIALS, FAILED_CREDENTIALS_LIMIT, failureKey } from '../src/core/rate-limits/failures.js';
import { clientAddressOf } from '../src/http/client-address.js';
import type { TrustProxy } from '../src/http/server.js';
import { CLEAR_READ_TTL_MS, RedisFailures } from '../src/rate-limits/redis-failures.js';
import { requestFrom } from './helpers/from-address.js';
import { answerHeads } from './helpers/raw-http.js';
import { signInForm } from './helpers/oauth2.js';
import { GatewayClient } from './helpers/gateway-client.js';
import { deletePrefix, freshRedisPrefix, redisUrl } from './helpers/redis.js';
import { startServer, type TestResponse, type TestServer } from './helpers/server.js';
import { ADMIN_TOKEN, ALICE_TOKEN, DEMO_APP_ID, DEMO_BOT_TOKEN, DEMO_CC_TOKEN } from './helpers/world.js';

const START = 1_750_000_000_000;
const WINDOW_S = DEFAULT_FAILED_CREDENTIALS.windowMs / 1000;
/** The address a valid credential comes from while another address is throttled. */
const OTHER = '127.0.0.1';
const RATE_LIMITED = { message: 'You are being rate limited.', code: 0, retry_after: WINDOW_S, global: true };
const AUTHORIZE_QUERY = `client_id=${DEMO_APP_ID}&response_type=code&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcallback&scope=identify`;

/** One kind of secret a client presents, and how a request carrying it is sent. */
interface Credential {
  name: string;
  right: string;
  /** The status a right secret is answered with. */
  admitted: number;
  /** Whether refusals are v10 JSON (the sign-in form answers with its page). */
  json: boolean;
  send(server: TestServer, from: string, secret: string): Promise<TestResponse>;
}

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const basic = (secret: string) => `Basic ${Buffer.from(`${DEMO_APP_ID}:${secret}`).toString('base64')}`;

const CREDENTIALS: Credential[] = [
  {
    name: 'a bot token (GET /gateway/bot)',
    right: DEMO_BOT_TOKEN,
    admitted: 200,
    json: true,
    send: (s, from, secret) =>
      requestFrom(from, 'GET', `${s.api}/gateway/bot`, { headers: { authorization: `Bot ${secret}` } }),
  },
  {
    name: 'a user token (GET /users/@me)',
    right: ALICE_TOKEN,
    admitted: 200,
    json: true,
    send: (s, from, secret) => requestFrom(from, 'GET', `${s.api}/users/@me`, { headers: { authorization: secret } }),
  },
  {
    name: 'a Bearer token (GET /oauth2/@me)',
    right: DEMO_CC_TOKEN,
    admitted: 200,
    json: true,
    send: (s, from, secret) =>
      requestFrom(from, 'GET', `${s.api}/oauth2/@me`, { headers: { authorization: `Bearer ${secret}` } }),
  },
  {
    name: 'the admin token (GET /admin/world)',
    right: ADMIN_TOKEN,
    admitted: 200,
    json: true,
    send: (s, from, secret) =>
      requestFrom(from, 'GET', `${s.url}/admin/world`, { headers: { authorization: `Bearer ${secret}` } }),
  },
  {
    name: 'the metrics token (GET /metrics)',
    right: ADMIN_TOKEN,
    admitted: 200,
    json: true,
    send: (s, from, secret) =>
      requestFrom(from, 'GET', `${s.url}/metrics`, { headers: { authorization: `Bearer ${secret}` } }),
  },
  {
    name: 'a client secret (POST /oauth2/token)',
    right: 'demo-client-secret',
    admitted: 200,
    json: true,
    send: (s, from, secret) =>
      requestFrom(from, 'POST', `${s.api}/oauth2/token`, {
        headers: { ...form, authorization: basic(secret) },
        body: 'grant_type=client_credentials&scope=applications.commands.update',
      }),
  },
  {
    name: 'a user token on the sign-in form (POST /oauth2/authorize/sign-in)',
    right: ALICE_TOKEN,
    admitted: 303,
    json: false,
    // The form as a browser posts it: with the cookie and form token of the page it loaded (login CSRF).
    send: async (s, from, secret) => {
      const page = await loadedSignInForm(s);
      return requestFrom(from, 'POST', `${s.url}/oauth2/authorize/sign-in`, {
        headers: { ...form, cookie: page.cookie },
        body: new URLSearchParams({
          token: secret,
          query: AUTHORIZE_QUERY,
          sign_in_token: page.signInToken,
        }).toString(),
      });
    },
  },
];

const signInForms = new WeakMap<TestServer, ReturnType<typeof signInForm>>();

/** One loaded sign-in form per server: its cookie and token serve every post (the page reuses them too). */
function loadedSignInForm(s: TestServer): ReturnType<typeof signInForm> {
  let page = signInForms.get(s);
  if (!page) signInForms.set(s, (page = signInForm(s.url, AUTHORIZE_QUERY)));
  return page;
}

/**
 * The 429 of a throttled address: v10's global rate-limit answer, or the sign-in page's. The
 * window ends a minute after the first failure by the injected clock; by Redis's own clock (which
 * runs) with many nodes, so there `retry_after` is only within the minute.
 */
function assertThrottled(response: TestResponse, credential: Credential, what: string, clock = 'injected'): void {
  assert.equal(response.status, 429, `${what}: ${response.text.slice(0, 200)}`);
  assert.equal(response.headers.get('retry-after'), String(WINDOW_S), what);
  if (!credential.json) {
    assert.match(response.text, /Too many failed sign-ins from your address: try again in 60 s\./, what);
    return;
  }
  if (clock === 'redis') {
    const retryAfter = response.body.retry_after as number;
    assert.ok(retryAfter > 0 && retryAfter <= WINDOW_S, `${what}: retry_after ${retryAfter}`);
    assert.deepEqual(response.body, { ...RATE_LIMITED, retry_after: retryAfter }, what);
  } else assert.deepEqual(response.body, RATE_LIMITED, what);
  assert.equal(response.headers.get('x-ratelimit-global'), 'true', what);
  assert.equal(response.headers.get('x-ratelimit-scope'), 'global', what);
}

describe('failed credentials: throttled per source address, on one node', () => {
  let server: TestServer;
  let clock = START;
  before(async () => {
    // `off` turns the v10 limits off, not the throttle: it is on whatever the preset.
    server = await startServer({ now: () => clock, config: { rateLimits: { preset: 'off' } } });
  });
  after(() => server.close());

  CREDENTIALS.forEach((credential, i) => {
    test(`${credential.name}: 20 failures answered, then 429 for every secret from that address only`, async () => {
      const attacker = `127.0.0.${10 + i}`;
      for (let n = 0; n < FAILED_CREDENTIALS_LIMIT; n++) {
        const wrong = await credential.send(server, attacker, `wrong-${n}`);
        assert.equal(wrong.status, 401, `failure ${n + 1} is answered as a failure`);
      }
      assertThrottled(await credential.send(server, attacker, 'wrong-again'), credential, 'the 21st guess');
      assertThrottled(await credential.send(server, attacker, credential.right), credential, 'the right secret');
      const other = await credential.send(server, OTHER, credential.right);
      assert.equal(other.status, credential.admitted, `another address is never refused: ${other.text.slice(0, 200)}`);
    });
  });

  test('successes are not counted: 50 of them, then 19 failures, and the address is still admitted', async () => {
    const bot = CREDENTIALS[0]!;
    const from = '127.0.0.30';
    for (let n = 0; n < 50; n++) assert.equal((await bot.send(server, from, bot.right)).status, 200);
    for (let n = 0; n < FAILED_CREDENTIALS_LIMIT - 1; n++) {
      assert.equal((await bot.send(server, from, `wrong-${n}`)).status, 401);
    }
    assert.equal((await bot.send(server, from, bot.right)).status, 200);
  });

  test('300 wrong tokens at once on the sign-in form: exactly 20 are answered, 280 refused', async () => {
    const signIn = CREDENTIALS.at(-1)!;
    const responses = await Promise.all(
      Array.from({ length: 300 }, (_, n) => signIn.send(server, '127.0.0.31', `guess-${n}`)),
    );
    assert.equal(responses.filter((r) => r.status === 401).length, FAILED_CREDENTIALS_LIMIT);
    assert.equal(responses.filter((r) => r.status === 429).length, 300 - FAILED_CREDENTIALS_LIMIT);
    assert.equal((await signIn.send(server, OTHER, signIn.right)).status, 303);
  });

  test('a throttled request without a body keeps its connection; one with a body has it closed', async () => {
    const attacker = '127.0.0.40';
    const bot = CREDENTIALS[0]!;
    for (let n = 0; n < FAILED_CREDENTIALS_LIMIT; n++) await bot.send(server, attacker, `wrong-${n}`);
    const { hostname, port } = new URL(server.url);
    const get = `GET /api/v10/gateway/bot HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bot wrong\r\n\r\n`;
    const twice = await answerHeads({ host: hostname, port: Number(port), localAddress: attacker }, get + get, 2);
    assert.equal(twice.length, 2, 'both answers came on one connection');
    for (const answer of twice) {
      assert.match(answer, /^HTTP\/1\.1 429/);
      assert.doesNotMatch(answer, /^connection: close/im);
    }
    const body = 'grant_type=client_credentials';
    const post = `POST /api/v10/oauth2/token HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/x-www-form-urlencoded\r\nAuthorization: ${basic('wrong')}\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const [refused] = await answerHeads({ host: hostname, port: Number(port), localAddress: attacker }, post, 1);
    assert.match(refused ?? '', /^HTTP\/1\.1 429/);
    assert.match(refused ?? '', /^connection: close/im);
  });

  test('once the window ends, every throttled address is admitted again', async () => {
    clock += DEFAULT_FAILED_CREDENTIALS.windowMs;
    for (const [i, credential] of CREDENTIALS.entries()) {
      const response = await credential.send(server, `127.0.0.${10 + i}`, credential.right);
      assert.equal(response.status, credential.admitted, credential.name);
    }
  });
});

describe('failed credentials at the gateway: IDENTIFY and RESUME share the count', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({
      now: () => START,
      config: { rateLimits: { preset: 'off' }, trustProxy: '127.0.0.1' },
    });
  });
  after(() => server.close());

  /** A socket from `from` (or forwarded for `forwardedFor` by the trusted proxy at 127.0.0.1) sends IDENTIFY. */
  async function identify(token: string, from: string, forwardedFor?: string) {
    const client = await GatewayClient.connect(server.url, '?v=10&encoding=json', {
      localAddress: from,
      ...(forwardedFor ? { headers: { 'x-forwarded-for': forwardedFor } } : {}),
    });
    await client.nextOp(10);
    client.identify(token);
    // READY, or the close code when the socket is closed first.
    const outcome = await client.nextDispatch('READY').then(
      () => 'READY',
      async () => (await client.closedWith()).code,
    );
    client.drop();
    return outcome;
  }

  test('20 wrong tokens close with 4004; then even the right one from that address closes with 4008', async () => {
    for (let n = 0; n < FAILED_CREDENTIALS_LIMIT; n++) assert.equal(await identify(`wrong-${n}`, '127.0.0.50'), 4004);
    assert.equal(await identify(DEMO_BOT_TOKEN, '127.0.0.50'), 4008);
    const resume = await GatewayClient.connect(server.url, '?v=10&encoding=json', { localAddress: '127.0.0.50' });
    await resume.nextOp(10);
    resume.send({ op: 6, d: { token: DEMO_BOT_TOKEN, session_id: 'x', seq: 0 } });
    assert.equal((await resume.closedWith()).code, 4008, 'RESUME too');
    assert.equal(await identify(DEMO_BOT_TOKEN, '127.0.0.2'), 'READY', 'another address logs in');
  });

  test('wrong tokens on the HTTP API count against IDENTIFY from the same address', async () => {
    const bot = CREDENTIALS[0]!;
    for (let n = 0; n < FAILED_CREDENTIALS_LIMIT; n++) {
      assert.equal((await bot.send(server, '127.0.0.51', `wrong-${n}`)).status, 401);
    }
    assert.equal(await identify(DEMO_BOT_TOKEN, '127.0.0.51'), 4008);
  });

  test('behind the trusted proxy, the forwarded client is counted, as Fastify counts it for HTTP', async () => {
    for (let n = 0; n < FAILED_CREDENTIALS_LIMIT; n++) {
      assert.equal(await identify(`wrong-${n}`, '127.0.0.1', '203.0.113.20'), 4004);
    }
    assert.equal(await identify(DEMO_BOT_TOKEN, '127.0.0.1', '203.0.113.20'), 4008);
    assert.equal(await identify(DEMO_BOT_TOKEN, '127.0.0.1', '203.0.113.21'), 'READY');
  });
});

describe('issue 21 defect 3: wrong client secrets do not lock the real client out', () => {
  test('with --rate-limits v10, ten wrong secrets under Demo Bot’s id, then the real secret from elsewhere gets a token', async () => {
    const server = await startServer({ now: () => START, config: { rateLimits: { preset: 'v10' } } });
    const secret = CREDENTIALS.find((c) => c.name.startsWith('a client secret'))!;
    try {
      const attempts: number[] = [];
      for (let n = 0; n < 10; n++) attempts.push((await secret.send(server, '127.0.0.2', `wrong-${n}`)).status);
      // The attacker meets the route's v10 bucket (5 per 5 s) at its own address.
      assert.deepEqual(attempts, [401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);
      const real = await secret.send(server, OTHER, secret.right);
      assert.equal(real.status, 200, real.text);
      assert.equal(typeof real.body.access_token, 'string');
      assert.equal(real.headers.get('x-ratelimit-remaining'), '4', 'the real client’s own bucket, untouched');
    } finally {
      await server.close();
    }
  });
});

describe('failed credentials behind a proxy: the forwarded address, only when the proxy is trusted', () => {
  const bot = CREDENTIALS[0]!;
  const via = (server: TestServer, forwardedFor: string, secret: string) =>
    requestFrom('127.0.0.1', 'GET', `${server.api}/gateway/bot`, {
      headers: { authorization: `Bot ${secret}`, 'x-forwarded-for': forwardedFor },
    });

  test('with --trust-proxy, each forwarded client has its own count', async () => {
    const server = await startServer({ now: () => START, config: { rateLimits: { preset: 'off' }, trustProxy: 1 } });
    try {
      for (let n = 0; n < FAILED_CREDENTIALS_LIMIT; n++)
        assert.equal((await via(server, '203.0.113.7', 'x')).status, 401);
      assertThrottled(await via(server, '203.0.113.7', bot.right), bot, 'the throttled client');
      assert.equal((await via(server, '203.0.113.8', bot.right)).status, 200, 'another client of the proxy');
    } finally {
      await server.close();
    }
  });

  test('without it, a forged X-Forwarded-For changes nothing: the connection’s address is counted', async () => {
    const server = await startServer({ now: () => START, config: { rateLimits: { preset: 'off' } } });
    try {
      for (let n = 0; n < FAILED_CREDENTIALS_LIMIT; n++) {
        assert.equal((await via(server, `203.0.113.${n}`, 'x')).status, 401);
      }
      assertThrottled(await via(server, '198.51.100.1', bot.right), bot, 'a new forged address');
    } finally {
      await server.close();
    }
  });
});

describe('failed credentials with two nodes sharing Redis', () => {
  const prefix = freshRedisPrefix('credential-throttle');
  const clients: Redis[] = [];
  let nodes: TestServer[] = [];
  const bot = CREDENTIALS[0]!;
  before(async () => {
    for (let i = 0; i < 2; i++) {
      const client = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
      await client.ping();
      clients.push(client);
    }
    nodes = await Promise.all(
      clients.map((redis) =>
        startServer({ now: () => START, config: { rateLimits: { preset: 'off', redis, redisPrefix: prefix } } }),
      ),
    );
  });
  after(async () => {
    await Promise.all(nodes.map((node) => node.close()));
    for (const client of clients) client.disconnect();
    await deletePrefix(prefix);
  });

  test('100 wrong bot tokens at once, spread over both nodes: exactly 20 answered, 80 refused', async () => {
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, n) => bot.send(nodes[n % 2]!, '127.0.0.2', `guess-${n}`)),
    );
    assert.equal(responses.filter((r) => r.status === 401).length, FAILED_CREDENTIALS_LIMIT);
    const refused = responses.filter((r) => r.status === 429);
    assert.equal(refused.length, 100 - FAILED_CREDENTIALS_LIMIT);
    for (const response of refused) assertThrottled(response, bot, 'a refused guess', 'redis');
  });

  test('failures on one node refuse the right token on the other, which never saw a failure', async () => {
    const [first, second] = nodes as [TestServer, TestServer];
    for (let n = 0; n < FAILED_CREDENTIALS_LIMIT; n++) {
      assert.equal((await bot.send(first, '127.0.0.3', `wrong-${n}`)).status, 401);
    }
    assertThrottled(await bot.send(second, '127.0.0.3', bot.right), bot, 'the right token on the other node', 'redis');
    assert.equal((await bot.send(second, OTHER, bot.right)).status, 200, 'another address on the other node');
    const admin = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    try {
      assert.equal(await admin.get(`${prefix}f:${failureKey('127.0.0.3')}`), String(FAILED_CREDENTIALS_LIMIT));
      const ttl = await admin.pttl(`${prefix}f:${failureKey('127.0.0.3')}`);
      assert.ok(ttl > 0 && ttl <= DEFAULT_FAILED_CREDENTIALS.windowMs, `the window ends in Redis (${ttl} ms)`);
    } finally {
      admin.disconnect();
    }
  });
});

describe('failed credentials in Redis: what a node reads, and when', () => {
  const prefix = freshRedisPrefix('credential-reads');
  let client: Redis;
  let reads = 0;
  let failures: RedisFailures;
  before(async () => {
    client = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    await client.ping();
    failures = new RedisFailures({ client, prefix });
    // Count the read script's calls: what a valid credential costs in Redis.
    const scripted = client as unknown as { slashdCredentialFailures: (...args: unknown[]) => Promise<number[]> };
    const read = scripted.slashdCredentialFailures.bind(client);
    scripted.slashdCredentialFailures = (...args) => {
      reads++;
      return read(...args);
    };
  });
  after(async () => {
    client.disconnect();
    await deletePrefix(prefix);
  });

  test('the valid credentials of one turn cost one read; an address read clear is trusted for a second', async () => {
    const before = reads;
    const answers = await Promise.all(Array.from({ length: 50 }, () => failures.failures(START, 'ip:127.0.0.60')));
    assert.deepEqual(new Set(answers), new Set([null]));
    assert.equal(reads - before, 1, 'fifty at once: one call');
    assert.equal(await failures.failures(START + CLEAR_READ_TTL_MS - 1, 'ip:127.0.0.60'), null);
    assert.equal(reads - before, 1, 'within the second: no call');
    await failures.failures(START + CLEAR_READ_TTL_MS, 'ip:127.0.0.60');
    assert.equal(reads - before, 2, 'a second later: read again');
  });

  test('a failure on this node ends the trust at once, even one counted while a read was on its way', async () => {
    const key = 'ip:127.0.0.61';
    assert.equal(await failures.failures(START, key), null, 'read clear, and trusted');
    const pending = failures.failures(START + CLEAR_READ_TTL_MS, key);
    // The read is sent (at the end of the turn) before the failure: Redis answers it 0.
    await new Promise((resolve) => setImmediate(resolve));
    const failed = failures.fail(START + CLEAR_READ_TTL_MS, key, 60_000);
    assert.equal(await pending, null);
    await failed;
    const before = reads;
    for (let n = 0; n < 2; n++) {
      const count = await failures.failures(START + CLEAR_READ_TTL_MS, key);
      assert.equal(count?.count, 1, 'the failure is seen');
    }
    assert.equal(reads - before, 2, 'an address failing here is read every time');
  });
});

describe('failed credentials while Redis is away', () => {
  test('each node counts in its own memory: guesses stay throttled, the count is not lost', async () => {
    // Nothing listens on port 1: every command fails at once.
    const away = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    const failures = new RedisFailures({ client: away, prefix: 'unused:' });
    try {
      for (let n = 1; n <= 3; n++) assert.equal((await failures.fail(START, 'ip:127.0.0.9', 60_000)).count, n);
      assert.deepEqual(await failures.failures(START, 'ip:127.0.0.9'), { count: 3, resetAt: START + 60_000 });
      assert.equal(await failures.failures(START, 'ip:127.0.0.8'), null);
    } finally {
      await failures.close();
      away.disconnect();
    }
  });
});

describe('failed credentials: what an address is counted as', () => {
  test('IPv4 as it is (an IPv4-mapped v6 address too); IPv6 by its /64, which one host holds whole', () => {
    assert.equal(failureKey('203.0.113.9'), 'ip:203.0.113.9');
    assert.equal(failureKey('::ffff:203.0.113.9'), 'ip:203.0.113.9');
    assert.equal(failureKey('2001:db8:1:2:aaaa::1'), failureKey('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    assert.notEqual(failureKey('2001:db8:1:2::1'), failureKey('2001:db8:1:3::1'));
    assert.equal(failureKey('2001:db8::1'), 'ip6:2001:db8:0:0::/64');
    assert.equal(failureKey('::1'), 'ip6:0:0:0:0::/64');
  });

  test('a gateway socket’s address is found as Fastify finds request.ip, for every --trust-proxy form', async () => {
    const trusts: (TrustProxy | undefined)[] = [
      undefined,
      1,
      2,
      '127.0.0.1',
      '10.0.0.0/8,127.0.0.1',
      'loopback',
      '::1',
    ];
    const cases = [
      { remote: '127.0.0.1', forwarded: undefined },
      { remote: '127.0.0.1', forwarded: '203.0.113.1' },
      { remote: '127.0.0.1', forwarded: '203.0.113.1, 10.0.0.7' },
      { remote: '10.0.0.9', forwarded: '198.51.100.2, 203.0.113.1' },
      { remote: '::ffff:127.0.0.1', forwarded: '203.0.113.3' },
      { remote: '::1', forwarded: '2001:db8::5' },
    ];
    for (const trust of trusts) {
      const app = Fastify(
        trust === undefined
          ? {}
          : { trustProxy: typeof trust === 'number' ? (_a: string, hop: number) => hop < trust : trust },
      );
      app.get('/', async (request) => request.ip);
      const addressOf = clientAddressOf(trust);
      for (const { remote, forwarded } of cases) {
        const headers = forwarded === undefined ? {} : { 'x-forwarded-for': forwarded };
        const fastify = await app.inject({ url: '/', remoteAddress: remote, headers });
        const ours = addressOf({ headers, socket: { remoteAddress: remote } } as never);
        assert.equal(ours, fastify.body, `trust ${String(trust)}, ${remote} forwarding ${String(forwarded)}`);
      }
      await app.close();
    }
  });
});
