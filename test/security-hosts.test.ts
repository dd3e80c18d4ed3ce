/**
 * Issue 21 defect 5 (DNS rebinding) and issue 23 item 3 (the gateway URL), through real sockets: a
 * Host slashd is not reachable as gets 421 on every route and at the WebSocket upgrade, before
 * anything is read or built from it; the announced gateway URL comes from configuration or the
 * bound address, never from a Host header. A real Chromium plays the rebinding: a page of the
 * attacker's name, resolved to 127.0.0.1, fetches the sandbox sign-in list from its own origin.
 */
import assert from 'node:assert/strict';
import { connect as tcpConnect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { parseServeArgs } from '../src/cli/serve-args.js';
import { DEFAULT_FAILED_CREDENTIALS } from '../src/core/rate-limits/failures.js';
import { announcedGatewayUrl } from '../src/gateway/gateway-url.js';
import { chromiumPath } from './helpers/browser.js';
import { startServer, type TestServer } from './helpers/server.js';
import { DEMO_BOT_TOKEN } from './helpers/world.js';

const REFUSAL = /^\{"message":"421: Misdirected Request \(slashd does not answer to the host [^"]*\)","code":0\}$/;

/** One raw HTTP/1.1 exchange on a fresh socket: the whole answer as text. */
function raw(server: TestServer, head: string): Promise<string> {
  const { port } = new URL(server.url);
  return new Promise<string>((resolve, reject) => {
    const socket = tcpConnect(Number(port), '127.0.0.1', () => socket.write(head));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString();
      // An accepted upgrade stays open: its status line is all this needs.
      if (text.startsWith('HTTP/1.1 101')) socket.destroy();
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

/** GET `path` with this Host; the answer's status and body. */
async function getWithHost(server: TestServer, path: string, host: string, auth?: string) {
  const text = await raw(
    server,
    `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n${auth ? `Authorization: ${auth}\r\n` : ''}Connection: close\r\n\r\n`,
  );
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
  return { status, body: text.slice(text.indexOf('\r\n\r\n') + 4) };
}

/** A WebSocket upgrade on `/` with this Host: the status of the answer. */
async function upgradeWithHost(server: TestServer, host: string): Promise<number> {
  const text = await raw(
    server,
    `GET /?v=10&encoding=json HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
  );
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
}

describe('DNS rebinding: a Host slashd is not reachable as is refused', () => {
  let server: TestServer;
  let port: string;
  before(async () => {
    server = await startServer({ config: { sandboxSignIn: true } });
    port = new URL(server.url).port;
  });
  after(() => server.close());

  test('the sandbox sign-in list, with its tokens, is not answered to rebind.attacker.example', async () => {
    const attacked = await getWithHost(server, '/console/api/sandbox-users', `rebind.attacker.example:${port}`);
    assert.equal(attacked.status, 421);
    assert.match(attacked.body, REFUSAL);
    assert.match(attacked.body, /the host 'rebind\.attacker\.example'/);
    const own = await getWithHost(server, '/console/api/sandbox-users', `127.0.0.1:${port}`);
    assert.equal(own.status, 200);
    assert.match(own.body, /alice-user-token/, 'the list itself is served to slashd’s own name');
  });

  test('discovery never announces the Host: 421 for evil.example:666, the bound address for its own names', async () => {
    const evil = await getWithHost(server, '/api/v10/gateway', 'evil.example:666');
    assert.equal(evil.status, 421);
    assert.doesNotMatch(evil.body, /evil\.example:666|ws:/);
    for (const host of ['localhost', `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'app.localhost']) {
      const own = await getWithHost(server, '/api/v10/gateway/bot', host, `Bot ${DEMO_BOT_TOKEN}`);
      assert.equal(own.status, 200, host);
      assert.equal(JSON.parse(own.body).url, `ws://127.0.0.1:${port}`, host);
    }
  });

  test('every route is covered: the admin API, unknown routes, the OAuth2 pages, the console', async () => {
    for (const path of ['/admin/world', '/api/v10/nothing-here', '/oauth2/authorize', '/console', '/healthz']) {
      const answer = await getWithHost(server, path, 'rebind.attacker.example');
      assert.equal(answer.status, 421, path);
      assert.match(answer.body, REFUSAL, path);
    }
  });

  test('a malformed Host is refused and never echoed', async () => {
    const answer = await getWithHost(server, '/api/v10/gateway', 'a b<script>');
    assert.equal(answer.status, 421);
    assert.match(answer.body, /the host of this request/);
    assert.doesNotMatch(answer.body, /script/);
  });

  test('the WebSocket upgrade checks the Host too', async () => {
    assert.equal(await upgradeWithHost(server, `rebind.attacker.example:${port}`), 421);
    assert.equal(await upgradeWithHost(server, `localhost:${port}`), 101);
  });
});

describe('DNS rebinding in a real browser', () => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    server = await startServer({ config: { sandboxSignIn: true } });
    // The attacker's name resolves to slashd's address, as it does once the rebinding is done.
    // Chromium's own Private Network Access checks are off: Firefox and Safari have none, and
    // this test is about what slashd answers, not what one browser happens to block first.
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--host-resolver-rules=MAP rebind.attacker.example 127.0.0.1',
        '--disable-features=BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults,LocalNetworkAccessChecks',
      ],
    });
  });
  after(async () => {
    await browser.close();
    await server.close();
  });

  test('a page of rebind.attacker.example reads nothing of slashd from its own origin', async () => {
    const port = new URL(server.url).port;
    const origin = `http://rebind.attacker.example:${port}`;
    const page = await browser.newPage();
    try {
      // The attacker's page, as its server sent it before the name pointed at 127.0.0.1.
      await page.route(`${origin}/`, (route) =>
        route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>cats</title>' }),
      );
      await page.goto(`${origin}/`);
      const stolen = await page.evaluate(async () => {
        const response = await fetch('/console/api/sandbox-users');
        return { status: response.status, text: await response.text() };
      });
      assert.equal(stolen.status, 421);
      assert.doesNotMatch(stolen.text, /token/);
      const console = await page.goto(`${origin}/console`);
      assert.equal(console?.status(), 421, 'the console is not served to that name either');
    } finally {
      await page.close();
    }
  });
});

describe('the names slashd is reachable as', () => {
  test('--allowed-hosts: a name, a .domain (itself and every name under it), and * for any', async () => {
    const server = await startServer({ config: { allowedHosts: ['slashd.internal', '.example.test'] } });
    try {
      for (const host of ['slashd.internal', 'SLASHD.internal:80', 'example.test', 'a.b.example.test.', '10.1.2.3:9']) {
        assert.equal((await getWithHost(server, '/healthz', host)).status, 200, host);
      }
      for (const host of ['slashd.internal.evil', 'badexample.test', 'example.test.evil', 'localhost.evil']) {
        assert.equal((await getWithHost(server, '/healthz', host)).status, 421, host);
      }
    } finally {
      await server.close();
    }
    const any = await startServer({ config: { allowedHosts: ['*'] } });
    try {
      assert.equal((await getWithHost(any, '/healthz', 'anything.example')).status, 200);
    } finally {
      await any.close();
    }
  });

  test('--public-url: its host is answered, and it (not the Host) makes the gateway URL and the OIDC issuer', async () => {
    const server = await startServer({ config: { publicUrl: 'https://slashd.example.org/base' } });
    try {
      const discovery = await getWithHost(server, '/api/v10/gateway', 'slashd.example.org');
      assert.equal(discovery.status, 200);
      assert.deepEqual(JSON.parse(discovery.body), { url: 'wss://slashd.example.org/base' });
      const oidc = await getWithHost(server, '/.well-known/openid-configuration', '127.0.0.1:1');
      assert.equal(JSON.parse(oidc.body).issuer, 'https://slashd.example.org/base');
      assert.equal((await getWithHost(server, '/healthz', 'other.example.org')).status, 421);
    } finally {
      await server.close();
    }
  });

  test('--gateway-url: announced as given, and its host answered (a proxy may send it)', async () => {
    const server = await startServer({ config: { gateway: { publicUrl: 'wss://gw.example.org:8443' } } });
    try {
      const discovery = await getWithHost(server, '/api/v10/gateway', 'gw.example.org:8443');
      assert.deepEqual(JSON.parse(discovery.body), { url: 'wss://gw.example.org:8443' });
      assert.equal(await upgradeWithHost(server, 'gw.example.org'), 101);
    } finally {
      await server.close();
    }
  });
});

describe('the announced gateway URL (pure)', () => {
  const listening = (host: string) => ({ publicUrl: null, listening: { host, port: 3210 } });

  test('configuration first, then the bound address; a Host only where the server is bound to every address', () => {
    assert.equal(announcedGatewayUrl('wss://gw.example', listening('127.0.0.1'), 'x'), 'wss://gw.example');
    assert.equal(
      announcedGatewayUrl(null, { publicUrl: 'http://a.example:8080', listening: null }, 'x'),
      'ws://a.example:8080',
    );
    assert.equal(announcedGatewayUrl(null, listening('127.0.0.1'), 'localhost'), 'ws://127.0.0.1:3210');
    assert.equal(announcedGatewayUrl(null, listening('::1'), undefined), 'ws://[::1]:3210');
    assert.equal(announcedGatewayUrl(null, listening('192.0.2.7'), 'name:1'), 'ws://192.0.2.7:3210');
    // Bound to every address: the name the client used, on the bound port unless the Host names one.
    assert.equal(announcedGatewayUrl(null, listening('0.0.0.0'), 'slashd.lan'), 'ws://slashd.lan:3210');
    assert.equal(announcedGatewayUrl(null, listening('::'), 'slashd.lan:8080'), 'ws://slashd.lan:8080');
    assert.equal(announcedGatewayUrl(null, listening('::'), '[fd00::1]'), 'ws://[fd00::1]:3210');
    assert.equal(announcedGatewayUrl(null, listening('0.0.0.0'), undefined), 'ws://localhost:3210');
    assert.equal(announcedGatewayUrl(null, listening('0.0.0.0'), 'bad host/x'), 'ws://localhost:3210');
  });
});

describe('slashd serve: --allowed-hosts and --auth-throttle', () => {
  test('--allowed-hosts (SLASHD_ALLOWED_HOSTS): names, .domains or *; anything else is a usage error', () => {
    assert.equal(parseServeArgs([], {}).allowedHosts, undefined);
    assert.deepEqual(parseServeArgs(['--allowed-hosts', 'Slashd.lan, .example.test'], {}).allowedHosts, [
      'slashd.lan',
      '.example.test',
    ]);
    assert.deepEqual(parseServeArgs([], { SLASHD_ALLOWED_HOSTS: '*' }).allowedHosts, ['*']);
    assert.throws(() => parseServeArgs(['--allowed-hosts', 'a.example,http://b'], {}), /not 'http:\/\/b'/);
  });

  test('--auth-throttle (SLASHD_AUTH_THROTTLE): FAILURES/SECONDS or off; 20/60 by default', () => {
    assert.deepEqual(parseServeArgs([], {}).authThrottle, DEFAULT_FAILED_CREDENTIALS);
    assert.deepEqual(parseServeArgs(['--auth-throttle', '5/300'], {}).authThrottle, { limit: 5, windowMs: 300_000 });
    assert.equal(parseServeArgs([], { SLASHD_AUTH_THROTTLE: 'off' }).authThrottle, null);
    for (const wrong of ['0/60', '5/0', '5', 'many/60', '5/100000']) {
      assert.throws(() => parseServeArgs(['--auth-throttle', wrong], {}), /--auth-throttle is FAILURES\/SECONDS/);
    }
  });
});
