/**
 * `slashd diff` and `slashd deploy`: against slashd (its dry run) and against another v10 server
 * without one (a small fake here, and slashd itself with `--server v10`), the same diff; deploy
 * sends the overwrite only when something would change.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { main, type Output } from '../src/cli/main.js';
import { parseExposition } from './helpers/prometheus.js';
import { startServer, type TestServer } from './helpers/server.js';
import type { Json } from './helpers/json.js';
import { ADMIN_TOKEN, BOT, DEMO_APP_ID, DEMO_BOT_TOKEN, GLOBAL_BASE, TEST_GUILD_ID } from './helpers/world.js';

function captured(): Output & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, log: (line) => lines.push(line), error: (line) => errors.push(line) };
}

const FIRST = [
  { name: 'ping', description: 'Ping' },
  { name: 'echo', description: 'Echo', options: [{ type: 3, name: 'text', description: 'Text' }] },
  { name: 'gone', description: 'Removed later' },
];
const SECOND = [
  { name: 'ping', description: 'Ping' },
  { name: 'echo', description: 'Echo it back', options: [{ type: 3, name: 'text', description: 'Words' }] },
  { name: 'fresh', description: 'New' },
];

/** A v10 server without a dry run: GET and PUT of one app's global commands, every request recorded. */
async function startFakeV10(): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  let commands: Json[] = [];
  let nextId = 1_400_000_000_000_000_000n;
  const read = (request: IncomingMessage): Promise<string> =>
    new Promise((resolve) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => resolve(text));
    });
  const server: Server = createServer((request, response) => {
    void (async () => {
      requests.push(`${request.method} ${request.url}`);
      const body = await read(request);
      const send = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      if (request.headers.authorization !== `Bot ${DEMO_BOT_TOKEN}`) return send(401, { message: '401', code: 0 });
      const path = (request.url ?? '').split('?')[0];
      if (path === '/api/v10/applications/@me') {
        return send(200, { id: DEMO_APP_ID, flags: 0, integration_types_config: { '0': {}, '1': {} } });
      }
      if (path !== `/api/v10/applications/${DEMO_APP_ID}/commands`) return send(404, { message: '404', code: 0 });
      if (request.method === 'GET') return send(200, commands);
      // PUT: ignores any query (no dry run); keeps ids by name, like v10.
      const list = JSON.parse(body) as Json[];
      commands = list.map((item) => {
        const existing = commands.find((c) => c.name === item.name);
        const id = existing?.id ?? String(nextId++);
        return { ...item, id, application_id: DEMO_APP_ID, version: String(nextId++), type: item.type ?? 1 };
      });
      return send(200, commands);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('slashd diff and deploy', () => {
  let server: TestServer;
  let dir: string;

  before(async () => {
    server = await startServer();
    dir = mkdtempSync(join(tmpdir(), 'slashd-deploy-'));
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function file(name: string, commands: unknown): string {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(commands));
    return path;
  }

  async function putCount(): Promise<number> {
    const answer = await server.request('GET', `${server.url}/metrics`, { auth: `Bearer ${ADMIN_TOKEN}` });
    return parseExposition(answer.text)
      .samples.filter((s) => s.name === 'slashd_http_request_duration_seconds_count' && s.labels.method === 'PUT')
      .reduce((sum, s) => sum + s.value, 0);
  }

  async function run(...args: string[]): Promise<{ code: number; out: ReturnType<typeof captured> }> {
    const out = captured();
    const code = await main(args, out);
    return { code, out };
  }

  test('against slashd: diff (the dry run), deploy, and a deploy with nothing to do sends no overwrite', async () => {
    const first = file('first.json', FIRST);
    const target = ['--app', DEMO_APP_ID, '--url', server.url, '--token', DEMO_BOT_TOKEN];
    const diff = await run('diff', first, ...target, '--json');
    assert.equal(diff.code, 1, diff.out.errors.join('\n'));
    const planned = JSON.parse(diff.out.lines.join('\n')) as Json;
    assert.equal(planned.added.length, 3);
    assert.equal(typeof planned.daily_creates.used_today, 'number');

    const deployed = await run('deploy', first, ...target);
    assert.equal(deployed.code, 0, deployed.out.errors.join('\n'));
    assert.match(deployed.out.lines.at(-1)!, /deployed: 3 commands/);
    const list = (await server.request('GET', GLOBAL_BASE, { auth: BOT })).body as Json[];
    assert.deepEqual(list.map((c) => c.name).sort(), ['echo', 'gone', 'ping']);

    const puts = await putCount();
    const again = await run('deploy', first, ...target);
    assert.equal(again.code, 0);
    assert.deepEqual(again.out.lines, ['no change: nothing deployed']);
    assert.equal(await putCount(), puts + 1, 'only the dry run was a PUT');
    assert.equal((await run('diff', first, ...target)).code, 0, 'no change: exit 0');

    const second = file('second.json', SECOND);
    const human = await run('diff', second, ...target);
    assert.equal(human.code, 1);
    assert.ok(human.out.lines.includes('+ fresh (type 1): new'));
    const echo = list.find((c) => c.name === 'echo')!;
    assert.ok(human.out.lines.includes(`~ echo (${echo.id}): description, options[0].description`));
    assert.ok(human.out.lines.some((line) => line.startsWith('- gone (')));
  });

  test('slashd read as any v10 server (--server v10) gives the same diff as its dry run', async () => {
    const second = file('second.json', SECOND);
    const target = ['--app', DEMO_APP_ID, '--url', server.url, '--token', DEMO_BOT_TOKEN, '--json'];
    const dry = JSON.parse((await run('diff', second, ...target)).out.lines.join('\n')) as Json;
    const local = JSON.parse((await run('diff', second, ...target, '--server', 'v10')).out.lines.join('\n')) as Json;
    for (const key of ['added', 'changed', 'unchanged', 'removed', 'ids_kept', 'version_bumps', 'changes']) {
      assert.deepEqual(local[key], dry[key], key);
    }
    assert.equal(local.daily_creates.used_today, null);
    assert.equal(local.daily_creates.would_use, dry.daily_creates.would_use);
  });

  test('against a v10 server without a dry run: diff reads its list; deploy PUTs only on a change', async () => {
    const fake = await startFakeV10();
    try {
      const target = ['--app', DEMO_APP_ID, '--url', fake.url, '--token', DEMO_BOT_TOKEN, '--server', 'v10'];
      const first = file('first.json', FIRST);
      const diff = await run('diff', first, ...target);
      assert.equal(diff.code, 1, diff.out.errors.join('\n'));
      assert.ok(!fake.requests.some((r) => r.startsWith('PUT')), 'diff never writes');
      assert.equal((await run('deploy', first, ...target)).code, 0);
      assert.equal(fake.requests.filter((r) => r.startsWith('PUT')).length, 1);
      assert.ok(!fake.requests.some((r) => r.includes('dry_run')), 'no dry run is ever asked of it');

      const again = await run('deploy', first, ...target);
      assert.deepEqual(again.out.lines, ['no change: nothing deployed']);
      assert.equal(fake.requests.filter((r) => r.startsWith('PUT')).length, 1, 'no second PUT');

      const changed = await run('diff', file('second.json', SECOND), ...target, '--json');
      const planned = JSON.parse(changed.out.lines.join('\n')) as Json;
      assert.deepEqual(
        planned.changed.map((c: Json) => [c.name, c.fields]),
        [['echo', ['description', 'options[0].description']]],
      );
      assert.deepEqual(
        planned.added.map((c: Json) => c.name),
        ['fresh'],
      );
      assert.deepEqual(
        planned.removed.map((c: Json) => c.name),
        ['gone'],
      );
    } finally {
      await fake.close();
    }
  });

  test('usage errors and an invalid file', async () => {
    assert.equal((await run('diff')).code, 2);
    const noApp = await run('diff', file('x.json', FIRST), '--token', 't');
    assert.equal(noApp.code, 2);
    const invalid = await run(
      'diff',
      file('bad.json', [{ name: 'Bad Name', description: 'x' }]),
      '--app',
      DEMO_APP_ID,
      '--guild',
      TEST_GUILD_ID,
      '--url',
      server.url,
      '--token',
      DEMO_BOT_TOKEN,
    );
    assert.equal(invalid.code, 1);
    assert.match(invalid.out.errors.join('\n'), /APPLICATION_COMMAND_INVALID_NAME/);
  });
});
