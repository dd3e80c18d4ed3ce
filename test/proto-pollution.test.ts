/**
 * Prototype pollution as a class: a client's `__proto__` key once made the error-tree builder write
 * into Object.prototype, so every later error body in the process carried earlier requests' errors.
 * Keys that name the prototype machinery are now refused at their path, client-keyed objects have
 * no prototype, and nothing a request sends reaches another request's answer.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readJsonText } from '../src/core/io/json-text.js';
import { repoRoot } from './helpers/openapi.js';
import { injectServer, type TestServer } from './helpers/server.js';
import { BOT, DEMO_APP_ID, OTHER_APP_ID, OTHER_BOT_TOKEN } from './helpers/world.js';

const ROOT = repoRoot();
const CLI = join(ROOT, 'bin', 'slashd.js');
const JSON_HEADERS = { 'content-type': 'application/json' };
const ATTACK = '{"name":"x","description":"d","name_localizations":{"__proto__":"x"}}';
const reservedKey = (key: string) => ({
  code: 'DICT_TYPE_INVALID_KEY',
  message: `The key "${key}" is reserved and cannot be used.`,
});

/** What Object.prototype holds: any key a request adds shows up here. */
function prototypeKeys(): string[] {
  return Object.getOwnPropertyNames(Object.prototype).sort();
}

/** The unrelated request: another app, another user's values, a plain validation error. */
function otherAppsBadCommand(server: TestServer) {
  return server.request('POST', `/applications/${OTHER_APP_ID}/commands`, {
    auth: `Bot ${OTHER_BOT_TOKEN}`,
    body: { name: 'Bad Name', description: '', name_localizations: { fr: 'Mauvais Nom' } },
  });
}

describe('prototype pollution through client keys', () => {
  let server: TestServer;
  const cleanPrototype = prototypeKeys();
  before(async () => {
    server = await injectServer();
  });
  after(() => server.close());

  it("the reported attack is a 50035 at the key, and another app's error body stays what it was on a fresh server", async () => {
    const baseline = await otherAppsBadCommand(server);
    assert.equal(baseline.status, 400);

    const attack = await server.request('POST', `/applications/${DEMO_APP_ID}/commands`, {
      auth: BOT,
      rawBody: ATTACK,
      headers: JSON_HEADERS,
    });
    assert.equal(attack.status, 400);
    // Compared as text: a parsed "__proto__" key is an own property, which property access cannot see.
    assert.equal(
      attack.text,
      JSON.stringify({
        message: 'Invalid Form Body',
        code: 50035,
        errors: JSON.parse(
          `{"name_localizations":{"__proto__":{"_errors":[${JSON.stringify(reservedKey('__proto__'))}]}}}`,
        ),
      }),
    );

    const later = await otherAppsBadCommand(server);
    assert.equal(later.status, 400);
    assert.equal(later.text, baseline.text);
    assert.deepEqual(later.body, baseline.body);
    assert.deepEqual(prototypeKeys(), cleanPrototype);
    assert.equal(({} as Record<string, unknown>)._errors, undefined);
    assert.equal(({} as Record<string, unknown>).x, undefined);
  });

  for (const reserved of ['__proto__', 'constructor']) {
    it(`"${reserved}" among 200 bad locale keys gives a bounded error body, and repeating it gives the same bytes`, async () => {
      const keys = [`"${reserved}":"x"`, ...Array.from({ length: 200 }, (_, i) => `"k${i}":"v${i}"`)].join(',');
      const body = `{"name":"x","description":"d","name_localizations":{${keys}},"description_localizations":{${keys}}}`;
      const send = () =>
        server.request('POST', `/applications/${DEMO_APP_ID}/commands`, {
          auth: BOT,
          rawBody: body,
          headers: JSON_HEADERS,
        });
      const first = await send();
      const second = await send();
      assert.equal(first.status, 400);
      // 402 issues of about 260 bytes at most; the polluted server answered hundreds of megabytes.
      assert.ok(first.text.length < 150_000, `error body is ${first.text.length} bytes`);
      assert.equal(second.text, first.text);
      assert.deepEqual(prototypeKeys(), cleanPrototype);
    });
  }

  it('constructor.prototype anywhere in a body is refused at its path before any route reads it', async () => {
    const response = await server.request('PATCH', '/applications/@me', {
      auth: BOT,
      rawBody: '{"description":"d","tags":[{"constructor":{"prototype":{"x":1}}}]}',
      headers: JSON_HEADERS,
    });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, {
      message: 'Invalid Form Body',
      code: 50035,
      errors: { tags: { 0: { constructor: { _errors: [reservedKey('constructor')] } } } },
    });
  });

  for (const key of ['constructor', 'prototype']) {
    it(`"${key}" in a localization dictionary of an option choice is refused at its path`, async () => {
      const response = await server.request('POST', `/applications/${DEMO_APP_ID}/commands`, {
        auth: BOT,
        body: {
          name: 'c',
          description: 'd',
          options: [
            {
              type: 3,
              name: 'o',
              description: 'd',
              choices: [{ name: 'a', value: 'a', name_localizations: { [key]: 'b' } }],
            },
          ],
        },
      });
      assert.equal(response.status, 400);
      assert.deepEqual(response.body.errors, {
        options: { 0: { choices: { 0: { name_localizations: { [key]: { _errors: [reservedKey(key)] } } } } } },
      });
    });
  }

  for (const key of ['hasOwnProperty', 'toString', 'valueOf']) {
    it(`"${key}" as a locale is an ordinary unknown locale (BASE_TYPE_CHOICES), never a crash`, async () => {
      const response = await server.request('POST', `/applications/${DEMO_APP_ID}/commands`, {
        auth: BOT,
        body: { name: 'c', description: 'd', description_localizations: { [key]: 'x' } },
      });
      assert.equal(response.status, 400);
      assert.deepEqual(Object.keys(response.body.errors.description_localizations), [key]);
      assert.equal(response.body.errors.description_localizations[key]._errors[0].code, 'BASE_TYPE_CHOICES');
    });
  }

  it('a client key "_errors" next to an error at its parent never crashes the error tree', async () => {
    const response = await server.request('POST', `/applications/${DEMO_APP_ID}/commands`, {
      auth: BOT,
      body: { name: 'c', description: 'd', name_localizations: { _errors: 'x', constructor: 'y' } },
    });
    assert.equal(response.status, 400);
    assert.equal(response.body.code, 50035);
  });
});

describe('default_member_permissions beyond 64 bits', () => {
  let server: TestServer;
  before(async () => {
    server = await injectServer();
  });
  after(() => server.close());

  it('a 39-digit set is refused with NUMBER_TYPE_MAX and nothing is stored', async () => {
    const path = `/applications/${DEMO_APP_ID}/commands`;
    const response = await server.request('POST', path, {
      auth: BOT,
      body: { name: 'wide', description: 'd', default_member_permissions: '1'.repeat(39) },
    });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body.errors, {
      default_member_permissions: {
        _errors: [{ code: 'NUMBER_TYPE_MAX', message: 'Value should be less than or equal to 18446744073709551615.' }],
      },
    });
    const listed = await server.request('GET', path, { auth: BOT });
    assert.equal(
      listed.body.some((command: { name: string }) => command.name === 'wide'),
      false,
    );
  });
});

describe('the one JSON reader', () => {
  it('reports the path of every poisoned key, nested in lists and objects', () => {
    const read = readJsonText(
      '{"a":[1,{"b":{"__proto__":{}}}],"c":{"constructor":{"prototype":1}},"d":{"constructor":1}}',
    );
    assert.equal(read.ok, false);
    assert.ok(!read.ok);
    assert.deepEqual(
      read.issues.map((i) => i.path),
      [
        ['a', 1, 'b', '__proto__'],
        ['c', 'constructor'],
      ],
    );
  });

  it('walks a 200 000-deep body without recursion', () => {
    const depth = 200_000;
    const read = readJsonText(`${'['.repeat(depth)}{"__proto__":1}${']'.repeat(depth)}`);
    assert.ok(!read.ok);
    assert.equal(read.issues[0]?.path.length, depth + 1);
  });
});

/** Runs the real CLI and collects its exit code and output. */
function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('files read by the CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'slashd-proto-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('slashd lint refuses a file with a __proto__ key, naming its path', async () => {
    const file = join(dir, 'commands.json');
    writeFileSync(file, '[{"name":"a","description":"d","name_localizations":{"__proto__":{"polluted":1}}}]');
    const result = await runCli(['lint', file]);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr + result.stdout, /0\.name_localizations\.__proto__/);
  });

  it('slashd serve refuses a world file with a __proto__ key, naming its path, without a stack trace', async () => {
    const world = join(dir, 'world.json');
    writeFileSync(world, '{"users":[{"__proto__":{"admin":true}}]}');
    const result = await runCli(['serve', '--port', '0', '--db', ':memory:', '--world', world]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /users\.0\.__proto__: DICT_TYPE_INVALID_KEY/);
    assert.doesNotMatch(result.stderr, /\n\s+at /);
  });

  for (const [what, db] of [
    [
      'a directory',
      () => {
        const d = join(dir, 'a-dir');
        mkdirSync(d, { recursive: true });
        return d;
      },
    ],
    [
      'a path under a regular file',
      () => {
        const f = join(dir, 'plain-file');
        writeFileSync(f, '');
        return join(f, 'db.sqlite');
      },
    ],
  ] as const) {
    it(`slashd serve with --db naming ${what} exits 1 with one line naming the path`, async () => {
      const path = db();
      const result = await runCli(['serve', '--port', '0', '--db', path]);
      assert.equal(result.code, 1);
      assert.ok(result.stderr.includes(`cannot open the SQLite database at ${path}`), result.stderr);
      assert.doesNotMatch(result.stderr, /\n\s+at /);
    });
  }
});
