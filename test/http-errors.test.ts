/**
 * The v10 error bodies at the HTTP edge ("Errors"), and a bounded fuzz: no input a
 * client sends yields a 5xx, and a refused write changes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { assertCommandResponse, assertErrorBody, assertMatchesSchema, withSchemaChecks } from './helpers/openapi.js';
import { injectServer, type TestResponse, type TestServer } from './helpers/server.js';
import { BOT, DEMO_APP_ID, GLOBAL_BASE, GUILD_BASE, TEST_GUILD_ID } from './helpers/world.js';
import type { Json } from './helpers/json.js';

const notFound = (route: string) => ({ message: `404: Not Found (slashd does not serve ${route})`, code: 0 });
const METHOD_NOT_ALLOWED = { message: '405: Method Not Allowed', code: 0 };

function expectError(response: TestResponse, status: number, code: number): void {
  assert.equal(response.status, status, response.text);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  assertErrorBody(response.status, response.body);
  assert.equal(response.body.code, code, response.text);
}

/** Every `_errors` leaf of a 50035 tree, with its path. */
function leaves(tree: Json, path: string[] = []): { path: string; codes: unknown[] }[] {
  const out: { path: string; codes: unknown[] }[] = [];
  for (const [key, value] of Object.entries(tree)) {
    if (key === '_errors') out.push({ path: path.join('.'), codes: (value as Json[]).map((e) => e.code) });
    else out.push(...leaves(value as Json, [...path, key]));
  }
  return out;
}

describe('error bodies', () => {
  let server: TestServer;
  before(async () => {
    server = withSchemaChecks(await injectServer());
  });
  after(async () => {
    await server.close();
  });

  test('invalid JSON: 400, 50109', async () => {
    for (const rawBody of ['{bad', '{"name": "x",}', '[1, 2', 'nul', '{"a": "\\x"}']) {
      for (const [method, path] of [
        ['POST', GLOBAL_BASE],
        ['PUT', GUILD_BASE],
      ] as const) {
        const response = await server.request(method, path, {
          auth: BOT,
          rawBody,
          headers: { 'content-type': 'application/json' },
        });
        expectError(response, 400, 50109);
      }
    }
  });

  test('a content type other than JSON (or form): 400, 50035 with a root _errors', async () => {
    for (const contentType of ['text/plain', 'application/xml', 'application/octet-stream', 'image/png']) {
      const response = await server.request('POST', GLOBAL_BASE, {
        auth: BOT,
        rawBody: '{"name":"ping","description":"Pong"}',
        headers: { 'content-type': contentType },
      });
      expectError(response, 400, 50035);
      assert.ok(Array.isArray(response.body.errors?._errors), 'a whole-request error sits at the root of the tree');
      assert.equal(typeof response.body.errors._errors[0].code, 'string');
    }
    const list = await server.request('GET', GLOBAL_BASE, { auth: BOT });
    assert.ok(!list.text.includes('"ping"'), 'nothing was created');
  });

  test('unknown routes: 404 {"message": "404: Not Found (slashd does not serve ...)", "code": 0}', async () => {
    const notV10 = (route: string) => notFound(`${route}, and neither does v10`);
    for (const [path, body] of [
      [`${server.api}/nope`, notV10('GET /nope')],
      [`${server.api}/applications/${DEMO_APP_ID}/nope`, notV10('GET /applications/{id}/nope')],
      [
        `${server.api}/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands/1/2/3`,
        notV10('GET /applications/{id}/guilds/{id}/commands/{id}/{id}/{id}'),
      ],
      [`${server.api}/guilds/${TEST_GUILD_ID}/integrations`, notFound('GET /guilds/{guild.id}/integrations')],
      // `/` itself is slashd's home page (home.test.ts).
      [`${server.url}/nothing-here`, notFound('GET /nothing-here')],
    ] as const) {
      for (const auth of [null, BOT]) {
        const response = await server.request('GET', path, { auth });
        assert.equal(response.status, 404, `${path}: ${response.text}`);
        assert.deepEqual(response.body, body);
      }
    }
  });

  test('malformed paths (broken percent escapes, huge ids): a 4xx with a v10 error body', async () => {
    for (const path of [
      '/applications/%ZZ/commands',
      `/applications/${DEMO_APP_ID}/guilds/%E0%A4%A/commands`,
      `/applications/${DEMO_APP_ID}/commands/%`,
      `/applications/${'9'.repeat(200)}/commands`,
      `/applications/${DEMO_APP_ID}/guilds/${'1'.repeat(30)}/commands`,
    ]) {
      const response = await server.request('GET', path, { auth: BOT });
      assert.ok(response.status >= 400 && response.status < 500, `${path}: ${response.status} ${response.text}`);
      assertErrorBody(response.status, response.body);
    }
  });

  test('a wrong method on a known route: 405 {"message": "405: Method Not Allowed", "code": 0}', async () => {
    const cases: [string, string][] = [
      ['DELETE', GLOBAL_BASE],
      ['PATCH', GUILD_BASE],
      ['PUT', `${GLOBAL_BASE}/1234567890123456789`],
      ['POST', `${GUILD_BASE}/1234567890123456789`],
      ['DELETE', '/users/@me'],
      ['POST', '/applications/@me'],
      ['GET', '/oauth2/token'],
    ];
    for (const [method, path] of cases) {
      for (const auth of [null, BOT]) {
        const response = await server.request(method, path, { auth });
        assert.equal(response.status, 405, `${method} ${path}: ${response.text}`);
        assert.deepEqual(response.body, METHOD_NOT_ALLOWED);
      }
    }
  });

  test('other API versions: 400, 50041; v9 is the same as v10', async () => {
    for (const version of ['v8', 'v6', 'v11', 'v1']) {
      const response = await server.request('GET', `${server.url}/api/${version}${GLOBAL_BASE}`, { auth: BOT });
      expectError(response, 400, 50041);
    }
    const v9 = `${server.url}/api/v9`;
    const created = await server.request('POST', `${v9}${GLOBAL_BASE}`, {
      auth: BOT,
      body: { name: 'viav9', description: 'Via v9' },
    });
    assert.equal(created.status, 201);
    assertCommandResponse(created.body);
    const viaV10 = await server.request('GET', `${GLOBAL_BASE}/${created.body.id}`, { auth: BOT });
    assert.deepEqual(viaV10.body, created.body);
    for (const path of [GLOBAL_BASE, GUILD_BASE, '/users/@me']) {
      const a = await server.request('GET', `${v9}${path}`, { auth: BOT });
      const b = await server.request('GET', path, { auth: BOT });
      assert.equal(a.status, b.status);
      assert.deepEqual(a.body, b.body, `v9 and v10 agree on ${path}`);
    }
    expectError(await server.request('GET', `${v9}${GLOBAL_BASE}/1234567890123456789`, { auth: BOT }), 404, 10063);
    assert.deepEqual((await server.request('GET', `${v9}/nope`, {})).body, notFound('GET /nope, and neither does v10'));
  });

  test('a body that is not an object (or not an array for PUT): 400, 50035', async () => {
    for (const body of ['a string', 42, true, null, [], [{ name: 'x', description: 'y' }]]) {
      expectError(await server.request('POST', GLOBAL_BASE, { auth: BOT, body }), 400, 50035);
    }
    const created = await server.request('POST', GLOBAL_BASE, {
      auth: BOT,
      body: { name: 'target', description: 'Target' },
    });
    for (const body of ['a string', 42, false, null, []]) {
      expectError(await server.request('PATCH', `${GLOBAL_BASE}/${created.body.id}`, { auth: BOT, body }), 400, 50035);
    }
    for (const body of ['a string', 42, true, null, { name: 'x', description: 'y' }]) {
      expectError(await server.request('PUT', GUILD_BASE, { auth: BOT, body }), 400, 50035);
    }
  });

  test('a 50035 body: the nested tree mirrors the JSON path, string codes at the leaves', async () => {
    const response = await server.request('POST', GUILD_BASE, {
      auth: BOT,
      body: {
        name: 'ok',
        description: 'Fine',
        options: [
          { type: 3, name: 'fine', description: 'Fine' },
          { type: 3, name: 'BAD NAME', description: 'x', choices: [{ name: '', value: 'v' }] },
        ],
      },
    });
    expectError(response, 400, 50035);
    assert.equal(response.body.message, 'Invalid Form Body');
    const found = leaves(response.body.errors);
    assert.ok(found.length > 0);
    for (const leaf of found) {
      assert.ok(leaf.codes.length > 0);
      for (const code of leaf.codes) assert.equal(typeof code, 'string', `${leaf.path}: string codes`);
    }
    const paths = found.map((l) => l.path);
    assert.ok(paths.includes('options.1.name'), `paths: ${paths.join(', ')}`);
    assert.ok(paths.includes('options.1.choices.0.name'), `paths: ${paths.join(', ')}`);
    assert.ok(!paths.some((p) => p.startsWith('options.0')), 'the valid option has no errors');

    const required = await server.request('POST', GUILD_BASE, { auth: BOT, body: { description: 'No name' } });
    expectError(required, 400, 50035);
    assert.deepEqual(required.body.errors.name._errors[0].code, 'BASE_TYPE_REQUIRED');

    const bulk = await server.request('PUT', GUILD_BASE, {
      auth: BOT,
      body: [{ name: 'ok', description: 'Fine' }, { type: 1 }],
    });
    expectError(bulk, 400, 50035);
    assert.ok(bulk.body.errors['1'], 'array indices are string keys');
    assert.equal(bulk.body.errors['0'], undefined);
    assert.equal(bulk.body.errors['1'].name._errors[0].code, 'BASE_TYPE_REQUIRED');
  });
});

// ---- bounded fuzz ---------------------------------------------------------------------------------

const VALID_COMMANDS: Json[] = [
  { name: 'ping', description: 'Replies with pong' },
  {
    name: 'settings',
    description: 'Change settings',
    default_member_permissions: '32',
    name_localizations: { fr: 'reglages', de: 'einstellungen' },
    options: [
      {
        type: 1,
        name: 'set',
        description: 'Set one',
        options: [
          { type: 3, name: 'key', description: 'Key', required: true, choices: [{ name: 'Prefix', value: 'prefix' }] },
          { type: 4, name: 'value', description: 'Value', min_value: 0, max_value: 100 },
        ],
      },
      {
        type: 2,
        name: 'roles',
        description: 'Roles',
        options: [
          { type: 1, name: 'add', description: 'Add', options: [{ type: 8, name: 'role', description: 'Role' }] },
        ],
      },
    ],
  },
  { name: 'Inspect User', type: 2 },
  { name: 'Quote', type: 3, nsfw: true },
  {
    name: 'search',
    description: 'Search',
    contexts: [0, 1],
    integration_types: [0, 1],
    options: [
      {
        type: 3,
        name: 'query',
        description: 'Query',
        required: true,
        min_length: 1,
        max_length: 200,
        autocomplete: true,
      },
      { type: 10, name: 'score', description: 'Score', min_value: -1.5, max_value: 1.5 },
      { type: 7, name: 'where', description: 'Channel', channel_types: [0, 2] },
    ],
  },
];

const INTERESTING: unknown[] = [
  null,
  undefined,
  '',
  'x',
  'X',
  ' ',
  'a'.repeat(32),
  'a'.repeat(33),
  'b'.repeat(100),
  'b'.repeat(101),
  'c'.repeat(6001),
  'UPPER',
  'with space',
  'ok-name',
  'émoji😀',
  '\u0000',
  0,
  -1,
  1,
  2,
  3,
  4,
  5,
  11,
  12,
  99,
  2 ** 31,
  2 ** 53,
  -(2 ** 53) - 2,
  1.5,
  1e308,
  -0,
  true,
  false,
  [],
  {},
  [null],
  [0, 0],
  ['0'],
  { fr: 'x' },
  { 'xx-XX': 'x' },
  { fr: '' },
  '123',
  '-1',
  '99999999999999999999999999',
  Array.from({ length: 26 }, (_, i) => ({ type: 3, name: `o${i}`, description: 'd' })),
  Array.from({ length: 26 }, (_, i) => ({ name: `c${i}`, value: `v${i}` })),
];

/** Every path to an object or array inside `value` (the root included). */
function containers(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [];
  if (Array.isArray(value)) {
    out.push(path);
    value.forEach((item, i) => out.push(...containers(item, [...path, i])));
  } else if (value && typeof value === 'object') {
    out.push(path);
    for (const [key, item] of Object.entries(value)) out.push(...containers(item, [...path, key]));
  }
  return out;
}

function at(root: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Json)[key as string], root);
}

type Mutation = { where: number; kind: 'set' | 'delete' | 'duplicate'; key: number; value: unknown };

const FIELD_NAMES = [
  'name',
  'description',
  'type',
  'options',
  'choices',
  'value',
  'required',
  'min_value',
  'max_value',
  'min_length',
  'max_length',
  'autocomplete',
  'channel_types',
  'name_localizations',
  'description_localizations',
  'default_member_permissions',
  'dm_permission',
  'nsfw',
  'contexts',
  'integration_types',
  'handler',
  'id',
  'version',
];

const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  where: fc.nat(),
  kind: fc.constantFrom('set', 'set', 'set', 'delete', 'duplicate'),
  key: fc.nat(),
  value: fc.oneof(fc.constantFrom(...INTERESTING), fc.jsonValue({ maxDepth: 2 })),
});

function mutate(base: Json, mutations: Mutation[]): unknown {
  const copy = structuredClone(base);
  for (const original of mutations) {
    // Values are cloned in: generated values are shared between runs and must stay untouched.
    const m = { ...original, value: structuredClone(original.value) };
    const paths = containers(copy);
    const path = paths[m.where % paths.length]!;
    const node = at(copy, path) as Json | unknown[];
    if (Array.isArray(node)) {
      if (node.length === 0 || m.kind === 'set') node[m.key % (node.length + 1)] = m.value;
      else if (m.kind === 'delete') node.splice(m.key % node.length, 1);
      else node.push(structuredClone(node[m.key % node.length]));
    } else {
      const keys = Object.keys(node);
      if (m.kind === 'delete' && keys.length > 0) delete node[keys[m.key % keys.length]!];
      else node[FIELD_NAMES[m.key % FIELD_NAMES.length]!] = m.value;
    }
  }
  return copy;
}

describe('bounded fuzz: never a 5xx, and a refused write changes nothing', () => {
  let server: TestServer;
  /** A command that PATCHes target, per scope. */
  const targets = new Map<string, string>();

  before(async () => {
    server = withSchemaChecks(await injectServer());
    for (const base of [GLOBAL_BASE, GUILD_BASE]) {
      const put = await server.request('PUT', base, { auth: BOT, body: VALID_COMMANDS });
      assert.equal(put.status, 200, put.text);
      targets.set(base, put.body[1].id);
    }
  });
  after(async () => {
    await server.close();
  });

  async function snapshot(base: string): Promise<string> {
    const response = await server.request('GET', `${base}?with_localizations=true`, { auth: BOT });
    assert.equal(response.status, 200);
    return response.text;
  }

  const outcomes = { accepted: 0, refused: 0 };
  /** The last list read per scope, known to be current (every write goes through `check`). */
  const lists = new Map<string, string>();

  /** Sends one write and checks the outcome against the list before and after. */
  async function check(
    method: 'POST' | 'PUT' | 'PATCH',
    base: string,
    options: { body?: unknown; rawBody?: string },
  ): Promise<void> {
    let target = targets.get(base)!;
    const before = lists.get(base) ?? (await snapshot(base));
    lists.delete(base);
    const path = method === 'PATCH' ? `${base}/${target}` : base;
    const headers = options.rawBody !== undefined ? { 'content-type': 'application/json' } : undefined;
    const response = await server.request(method, path, { auth: BOT, ...options, headers });
    assert.ok(
      response.status < 500,
      `${method} ${path} ${JSON.stringify(options).slice(0, 500)} -> ${response.status} ${response.text}`,
    );
    if (response.status >= 400) {
      outcomes.refused += 1;
      assertErrorBody(response.status, response.body);
      const now = await snapshot(base);
      lists.set(base, now);
      assert.equal(now, before, `refused ${method} changed the list: ${JSON.stringify(options).slice(0, 500)}`);
      return;
    }
    outcomes.accepted += 1;
    assert.ok([200, 201].includes(response.status), `${method}: ${response.status}`);
    assertCommandResponse(response.body);
    if (method === 'PUT') {
      // The list was replaced: keep a PATCH target alive for the next runs.
      const list = response.body as Json[];
      if (!list.some((c) => c.id === target)) {
        const reset = await server.request('PUT', base, { auth: BOT, body: VALID_COMMANDS });
        if (reset.status === 200) target = reset.body[1].id;
        targets.set(base, target);
      }
    }
  }

  const scopeArb = fc.constantFrom(GLOBAL_BASE, GUILD_BASE);
  const methodArb = fc.constantFrom('POST' as const, 'PUT' as const, 'PATCH' as const);

  test('300 random JSON bodies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), scopeArb, methodArb, async (body, base, method) => {
        await check(method, base, { rawBody: JSON.stringify(body) });
      }),
      { numRuns: 300 },
    );
  });

  test('random mutations of valid commands, POSTed, PUT and PATCHed', async () => {
    outcomes.accepted = 0;
    outcomes.refused = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...VALID_COMMANDS),
        fc.array(mutationArb, { minLength: 1, maxLength: 4 }),
        scopeArb,
        methodArb,
        async (base, mutations, scope, method) => {
          const mutated = mutate(base, mutations);
          const body = method === 'PUT' ? [VALID_COMMANDS[0], mutated] : mutated;
          await check(method, scope, { body });
        },
      ),
      { numRuns: 200 },
    );
    // Mutations explore both sides of the validation (a fuzz that is only refused tests little).
    assert.ok(outcomes.accepted > 0 && outcomes.refused > 0, JSON.stringify(outcomes));
  });

  test('random strings as JSON bodies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 64 }), scopeArb, methodArb, async (raw, base, method) => {
        await check(method, base, { rawBody: raw });
      }),
      { numRuns: 100 },
    );
  });

  test('the lists are still well-formed after the fuzz', async () => {
    for (const base of [GLOBAL_BASE, GUILD_BASE]) {
      const response = await server.request('GET', `${base}?with_localizations=true`, { auth: BOT });
      assert.equal(response.status, 200);
      for (const command of response.body) assertMatchesSchema('ApplicationCommandResponse', command);
    }
  });
});
