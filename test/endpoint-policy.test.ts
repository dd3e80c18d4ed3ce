/**
 * The outbound policy over real HTTP: interactions endpoint URLs that point at private, link-local
 * or reserved addresses (in any spelling) or carry credentials are refused before anything is
 * sent; every verification failure of the connection kind reads the same (no port scanner); a
 * name re-pointed after verification (DNS rebinding) cannot reach a refused address; and failed
 * deliveries tell the app's developer exactly why, in the interaction and in one log line.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import type { LookupAddress } from 'node:dns';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runServe } from '../src/cli/serve.js';
import { POLICY_REFUSAL } from '../src/core/outbound-policy.js';
import type { Resolver } from '../src/delivery/outbound-lookup.js';
import { unreachableEndpointDetail } from '../src/resources/interactions/delivery.js';
import { fetchVerifyKey, setEndpoint, startAppServer, type AppServer, type Json } from './helpers/app-server.js';
import { repoRoot } from './helpers/openapi.js';
import { startServer, type TestServer } from './helpers/server.js';
import { BOB_TOKEN as BOB, BOT, DEMO_APP_ID, DEMO_BOT_TOKEN, TEST_GUILD_ID } from './helpers/world.js';
import { invocationBody } from './helpers/invocation.js';

const FIELD = 'interactions_endpoint_url';
const UNVERIFIED = 'The specified interactions endpoint url could not be verified.';
const START_TIMEOUT_MS = 20_000;

/** A resolver that answers from a table; a list of answers is used in turn, the last one repeating. */
function tableResolver(table: Record<string, string[][]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve: Resolver = (hostname, _options, callback) => {
    calls.push(hostname);
    const answers = table[hostname];
    if (!answers) {
      const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return process.nextTick(() => callback(error, []));
    }
    const seen = calls.filter((c) => c === hostname).length;
    const addresses = answers[Math.min(seen, answers.length) - 1]!;
    const result: LookupAddress[] = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    process.nextTick(() => callback(null, result));
  };
  return Object.assign(resolve, { calls });
}

async function listen(server: Server | ReturnType<typeof createHttpServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function closedPort(): Promise<number> {
  const server = createTcpServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function endpointErrors(body: Json | undefined): Json[] {
  const errors = body?.errors?.[FIELD]?._errors as Json[] | undefined;
  assert.ok(errors, `the error is at ${FIELD}: ${JSON.stringify(body)}`);
  return errors;
}

describe('the endpoint policy (default: public and loopback)', () => {
  let server: TestServer;
  let verifyKey: string;
  let command: Json;
  const resolver = tableResolver({
    'rebind.test': [['127.0.0.1'], ['127.0.0.1'], ['169.254.169.254']],
    'metadata.test': [['169.254.169.254']],
    'private.test': [['10.0.0.5', 'fd00::5']],
  });
  const apps: AppServer[] = [];

  before(async () => {
    server = await startServer({ config: { resolve: resolver } });
    verifyKey = (await fetchVerifyKey(server.api, DEMO_BOT_TOKEN)).verifyKey;
    const created = await server.request('POST', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
      auth: BOT,
      body: { name: 'ping', description: 'Ping' },
    });
    assert.equal(created.status, 201, created.text);
    command = created.body;
  });

  after(async () => {
    for (const app of apps) await app.close();
    await server?.close();
  });

  async function app(options: { handler?: () => Json; closeEachConnection?: boolean } = {}): Promise<AppServer> {
    const handler = options.handler ?? (() => ({ inline: { type: 4, data: { content: 'pong' } } }));
    const started = await startAppServer({
      publicKey: verifyKey,
      api: server.api,
      applicationId: DEMO_APP_ID,
      handler: handler as never,
      closeEachConnection: options.closeEachConnection,
    });
    apps.push(started);
    return started;
  }

  async function refusedWith(url: string): Promise<string> {
    const response = await setEndpoint(server.api, DEMO_BOT_TOKEN, url);
    assert.equal(response.status, 400, `${url}: ${response.text}`);
    const errors = endpointErrors(response.body);
    assert.deepEqual(
      errors.map((e) => e.code),
      ['APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID'],
      url,
    );
    return errors[0]!.message as string;
  }

  async function invoke(): Promise<Json> {
    const response = await server.request('POST', '/interactions', {
      auth: BOB,
      body: invocationBody(command),
    });
    assert.equal(response.status, 200, response.text);
    const shown = await server.request('GET', `/interactions/${response.body.id}`, { auth: BOB });
    assert.equal(shown.status, 200, shown.text);
    return shown.body;
  }

  test('private, link-local and reserved addresses, in any spelling or behind a name: refused by the policy', async () => {
    const urls = [
      'http://169.254.169.254/latest/meta-data/',
      'http://2852039166/',
      'http://0xa9.0xfe.0xa9.0xfe/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://10.0.0.1/',
      'http://10.1/',
      'http://192.168.1.1:8080/',
      'http://172.16.0.1/',
      'http://100.64.0.1/',
      'http://[fd00::1]/',
      'http://[fe80::1]/',
      'http://0/',
      'http://0.0.0.0:80/',
      'http://[::]/',
      'http://224.0.0.1/',
      'http://metadata.test/',
      'http://private.test/',
    ];
    for (const url of urls)
      assert.equal(
        await refusedWith(url),
        `The specified interactions endpoint url could not be verified: ${POLICY_REFUSAL}`,
        url,
      );
  });

  test('a URL with credentials is refused and the endpoint receives nothing', async () => {
    const target = await app();
    const port = new URL(target.url).port;
    for (const url of [`http://user:pw@127.0.0.1:${port}/interactions`, `http://user@127.0.0.1:${port}/interactions`]) {
      assert.match(await refusedWith(url), /credentials in the URL are not allowed/);
    }
    assert.equal(target.received.length, 0);
  });

  test('numeric spellings of loopback are loopback: allowed, as in the sandbox', async () => {
    const target = await app();
    const port = new URL(target.url).port;
    for (const host of ['127.1', '2130706433', '0x7f.0.0.1']) {
      const response = await setEndpoint(server.api, DEMO_BOT_TOKEN, `http://${host}:${port}/interactions`);
      assert.equal(response.status, 200, `${host}: ${response.text}`);
    }
    assert.equal(target.received.length, 6, 'two verification requests for each');
  });

  test('every verification failure of the connection kind reads the same: no errno, no port, no status', async () => {
    const refused = await closedPort();
    const garbage = createTcpServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
    const notAnEndpoint = createHttpServer((_req, res) => res.writeHead(404).end('not found'));
    const silent = createTcpServer(() => undefined);
    const ports = [refused, await listen(garbage), await listen(notAnEndpoint), await listen(silent)];
    try {
      const messages = [];
      for (const port of ports) messages.push(await refusedWith(`http://127.0.0.1:${port}/interactions`));
      messages.push(await refusedWith('http://nowhere.test/interactions'));
      assert.deepEqual(new Set(messages), new Set([UNVERIFIED]), JSON.stringify(messages));
    } finally {
      for (const s of [garbage, notAnEndpoint, silent]) {
        if ('closeAllConnections' in s) s.closeAllConnections();
        s.close();
      }
    }
  });

  test('DNS rebinding after verification: the delivery never reaches the refused address', async () => {
    const target = await app({ closeEachConnection: true });
    const url = `http://rebind.test:${new URL(target.url).port}/interactions`;
    const registered = await setEndpoint(server.api, DEMO_BOT_TOKEN, url);
    assert.equal(registered.status, 200, registered.text);
    assert.equal(resolver.calls.filter((c) => c === 'rebind.test').length, 2, 'one lookup per verification request');

    const shown = await invoke();
    assert.equal(resolver.calls.filter((c) => c === 'rebind.test').length, 3, 'the delivery looked the name up again');
    assert.equal(shown.state, 'failed');
    assert.equal(shown.failure_reason, 'delivery_failure');
    assert.equal(shown.failure_detail, POLICY_REFUSAL);
    assert.equal(target.interactions().length, 0, 'the endpoint received no interaction');
  });

  test('a failed delivery names its cause for the developer: the status, invalid JSON, ECONNREFUSED', async () => {
    let answer: Json = { status: 500, body: 'boom' };
    const target = await app({ handler: () => answer, closeEachConnection: true });
    assert.equal((await setEndpoint(server.api, DEMO_BOT_TOKEN, target.url)).status, 200);

    const failed500 = await invoke();
    assert.deepEqual(
      [failed500.failure_reason, failed500.failure_detail],
      ['delivery_failure', 'the endpoint answered 500'],
    );
    answer = { status: 200, body: 'not json' };
    const invalid = await invoke();
    assert.deepEqual(
      [invalid.failure_reason, invalid.failure_detail],
      ['delivery_failure', 'invalid JSON in the inline response'],
    );
    await target.close();
    const gone = await invoke();
    assert.deepEqual(
      [gone.failure_reason, gone.failure_detail],
      ['delivery_failure', unreachableEndpointDetail('could not connect (ECONNREFUSED)')],
    );
  });
});

describe('the endpoint policy: public-only', () => {
  let server: TestServer;
  let target: AppServer;

  before(async () => {
    server = await startServer({ config: { endpointPolicy: { mode: 'public-only', allowPrivate: false } } });
    const { verifyKey } = await fetchVerifyKey(server.api, DEMO_BOT_TOKEN);
    target = await startAppServer({ publicKey: verifyKey, api: server.api, applicationId: DEMO_APP_ID });
  });

  after(async () => {
    await target?.close();
    await server?.close();
  });

  test('loopback is refused too, by address and by name, and nothing is sent', async () => {
    const port = new URL(target.url).port;
    for (const url of [target.url, `http://localhost:${port}/interactions`, `http://[::1]:${port}/interactions`]) {
      const response = await setEndpoint(server.api, DEMO_BOT_TOKEN, url);
      assert.equal(response.status, 400, response.text);
      assert.equal(
        endpointErrors(response.body)[0]!.message,
        `The specified interactions endpoint url could not be verified: ${POLICY_REFUSAL}`,
      );
    }
    assert.equal(target.received.length, 0);
  });
});

describe('slashd serve: policy flags and the delivery log', () => {
  const children: ChildProcess[] = [];

  after(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  });

  interface Served {
    api: string;
    output: () => string;
    /** Resolves once a whole line of output holds `text` (on the child's output events; no timer decides). */
    waitFor: (text: string) => Promise<void>;
  }

  function serve(args: string[]): Promise<Served> {
    const child = spawn(
      process.execPath,
      [
        join(repoRoot(), 'bin', 'slashd.js'),
        'serve',
        '--demo',
        '--db',
        ':memory:',
        '--port',
        '0',
        '--admin-token',
        'x',
        ...args,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    let stdout = '';
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`slashd did not start: ${stdout}`)), START_TIMEOUT_MS);
      child.stderr.resume();
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        const match = /listening on (http:\/\/\S+)/.exec(stdout);
        if (!match) return;
        clearTimeout(timer);
        const waitFor = (text: string) =>
          new Promise<void>((done) => {
            const check = () => {
              const completeLines = stdout.split('\n').slice(0, -1);
              if (!completeLines.some((line) => line.includes(text))) return;
              child.stdout.off('data', check);
              done();
            };
            child.stdout.on('data', check);
            check();
          });
        resolve({ api: `${match[1]}/api/v10`, output: () => stdout, waitFor });
      });
      child.once('exit', (code) => reject(new Error(`slashd exited (${code}): ${stdout}`)));
    });
  }

  test('an unknown --endpoint-policy (or SLASHD_ENDPOINT_POLICY) is refused at start', async () => {
    const errors: string[] = [];
    const out = { log: () => undefined, error: (line: string) => errors.push(line) };
    assert.equal(await runServe(['--db', ':memory:', '--endpoint-policy', 'anything'], out, {}), 2);
    assert.equal(await runServe(['--db', ':memory:'], out, { SLASHD_ENDPOINT_POLICY: 'open' }), 2);
    assert.match(errors.join('\n'), /--endpoint-policy is one of default, public-only, not 'anything'/);
  });

  test('--endpoint-policy public-only refuses a loopback endpoint', async () => {
    const slashd = await serve(['--endpoint-policy', 'public-only']);
    const { verifyKey } = await fetchVerifyKey(slashd.api, DEMO_BOT_TOKEN);
    const target = await startAppServer({ publicKey: verifyKey, api: slashd.api, applicationId: DEMO_APP_ID });
    try {
      const response = await setEndpoint(slashd.api, DEMO_BOT_TOKEN, target.url);
      assert.equal(response.status, 400, response.text);
      assert.equal(target.received.length, 0);
    } finally {
      await target.close();
    }
  });

  test('one info line per failed delivery: application, interaction, cause; never the token', async () => {
    const slashd = await serve(['--log-level', 'info']);
    const { verifyKey } = await fetchVerifyKey(slashd.api, DEMO_BOT_TOKEN);
    const target = await startAppServer({
      publicKey: verifyKey,
      api: slashd.api,
      applicationId: DEMO_APP_ID,
      handler: () => ({ status: 503, body: 'down' }),
    });
    try {
      assert.equal((await setEndpoint(slashd.api, DEMO_BOT_TOKEN, target.url)).status, 200);
      const created = await fetch(`${slashd.api}/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
        method: 'POST',
        headers: { authorization: BOT, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'ping', description: 'Ping' }),
      });
      const command = (await created.json()) as Json;
      const invoked = await fetch(`${slashd.api}/interactions`, {
        method: 'POST',
        headers: { authorization: BOB, 'content-type': 'application/json' },
        body: JSON.stringify(invocationBody(command)),
      });
      const interactionId = ((await invoked.json()) as Json).id as string;
      await slashd.waitFor(`"interactionId":"${interactionId}"`);
      const token = target.received.find((r) => r.body?.id === interactionId)?.body?.token as string;
      assert.ok(token, 'the app received the interaction and its token');

      const lines = slashd
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Json);
      const failures = lines.filter((l) => l.msg === 'interaction delivery failed');
      assert.equal(failures.length, 1, slashd.output());
      assert.equal(failures[0]!.level, 30, 'info');
      assert.equal(failures[0]!.applicationId, DEMO_APP_ID);
      assert.equal(failures[0]!.interactionId, interactionId);
      assert.equal(failures[0]!.reason, 'delivery_failure');
      assert.equal(failures[0]!.detail, 'the endpoint answered 503');
      assert.ok(!slashd.output().includes(token), 'the interaction token is never logged');
    } finally {
      await target.close();
    }
  });
});
