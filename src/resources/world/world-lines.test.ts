/**
 * A world in lines (`application/x-ndjson`, issue 27): read as it arrives into one world value,
 * whatever way the body is cut, bounded per line and in all; over HTTP a world larger than the
 * JSON body limit is merged or replaced as one change, and a bad line writes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { User } from '../../core/world/types.js';
import { WORLD_LINES_TYPE, WorldLinesReader } from './world-lines.js';
import { WORLD_IMPORT_BODY_LIMIT_BYTES } from '../../http/limits.js';
import { ISSUES_REPORTED_MAX } from '../../core/io/issue.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import { ADMIN_AUTH, exampleWorld } from '../../../test/helpers/world.js';

const userOf = (n: number): User => ({
  id: `16000000000000${String(n).padStart(5, '0')}`,
  username: `streamed-${n}`,
  token: `streamed-${n}-token`,
  locale: 'en-US',
  age_verified: false,
});

function readAll(body: string, cuts: number[], lineLimit?: number, totalLimit?: number) {
  const reader = new WorldLinesReader(lineLimit, totalLimit);
  const bytes = Buffer.from(body);
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    if (!reader.push(bytes.subarray(from, cut))) break;
    from = cut;
  }
  return reader.end();
}

describe('WorldLinesReader', () => {
  const body = [
    JSON.stringify({ users: [userOf(1), userOf(2)] }),
    '',
    JSON.stringify({ users: [userOf(3)], guilds: [], note: 'keys other than the lists are passed over' }),
    JSON.stringify({ oauth2_tokens: [] }),
  ].join('\n');

  test('gives the same world whichever way the body is cut', () => {
    const whole = readAll(body, []);
    assert.ok('value' in whole);
    assert.deepEqual(
      whole.value.users.map((u) => (u as User).id),
      [1, 2, 3].map((n) => userOf(n).id),
    );
    for (let cut = 1; cut < body.length; cut += 7) {
      assert.deepEqual(readAll(body, [cut, Math.min(body.length, cut + 3)]), whole, `cut at ${cut}`);
    }
  });

  test('a line that is not a world object is refused at its index', () => {
    const read = readAll(`${JSON.stringify({ users: [] })}\n[1]\n{"users": 5}`, []);
    assert.ok('error' in read);
    assert.equal(read.error.code, 50035);
    const errors = read.error.toBody().errors as Record<string, Record<string, unknown>>;
    assert.ok(errors['1']?._errors, 'line 1 is not an object');
    assert.ok((errors['2']?.users as Record<string, unknown>)?._errors, "line 2's users is not a list");
    assert.equal(errors['0'], undefined);
  });

  test('a poisoned key is named with its line', () => {
    const read = readAll(`{}\n{"users": [{"__proto__": {"x": 1}}]}`, []);
    assert.ok('error' in read);
    const errors = read.error.toBody().errors as Record<string, Record<string, Record<string, unknown>>>;
    assert.ok(errors['1']?.users?.['0'], JSON.stringify(errors));
  });

  test('a line that is not JSON is 50109', () => {
    const read = readAll('{"users": []}\n{"users": [', []);
    assert.ok('error' in read);
    assert.equal(read.error.code, 50109);
  });

  test('a line past its bound, or a body past its own, is 413 without reading on', () => {
    const long = JSON.stringify({ users: [userOf(1)] });
    const lineTooLong = readAll(`${long}\n${long}`, [5], long.length - 1);
    assert.ok('error' in lineTooLong);
    assert.equal(lineTooLong.error.status, 413);
    // Cut mid-line: the line is refused before its end arrives.
    const reader = new WorldLinesReader(10, 1000);
    assert.equal(reader.push(Buffer.from('{"users": [')), false);
    const bodyTooLong = readAll(`${long}\n${long}\n${long}`, [], undefined, long.length * 2);
    assert.ok('error' in bodyTooLong);
    assert.equal(bodyTooLong.error.status, 413);
  });
});

describe('POST and PUT /admin/world in lines', () => {
  let server: TestServer;
  /** Enough passed-over padding per line that the body is past the JSON body limit. */
  const padding = 'x'.repeat(1024 * 1024);
  const paddedLines = Math.ceil(WORLD_IMPORT_BODY_LIMIT_BYTES / padding.length) + 2;

  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  function send(method: string, body: string, type = WORLD_LINES_TYPE, auth: string | null = ADMIN_AUTH) {
    const headers: Record<string, string> = { 'content-type': type };
    if (auth) headers.authorization = auth;
    return fetch(`${server.url}/admin/world`, { method, headers, body });
  }

  function largeBody(users: User[], badLine: string | null = null): string {
    const lines = Array.from({ length: paddedLines }, (_, i) =>
      JSON.stringify({ users: users.filter((_, k) => k % paddedLines === i), padding }),
    );
    if (badLine !== null) lines.push(badLine);
    return lines.join('\n');
  }

  async function storedUser(id: string): Promise<number> {
    const response = await fetch(`${server.url}/admin/users/${id}`, { headers: { authorization: ADMIN_AUTH } });
    await response.arrayBuffer();
    return response.status;
  }

  test('a merge past the JSON body limit is read in lines and answered with what changed', async () => {
    const users = [userOf(10), userOf(11), userOf(12)];
    const body = largeBody(users);
    assert.ok(Buffer.byteLength(body) > WORLD_IMPORT_BODY_LIMIT_BYTES);

    const asJson = await send('POST', JSON.stringify({ users, padding: body }), 'application/json');
    assert.equal(asJson.status, 413);
    await asJson.arrayBuffer();

    const response = await send('POST', body);
    const answer = (await response.json()) as Record<string, unknown>;
    assert.equal(response.status, 200, JSON.stringify(answer));
    assert.deepEqual([...(answer.changed as { users: string[] }).users].sort(), users.map((u) => u.id).sort());
    for (const user of users) assert.equal(await storedUser(user.id), 200);
  });

  test('a bad last line writes nothing of the lines before it', async () => {
    const users = [userOf(20), userOf(21)];
    const response = await send('POST', largeBody(users, JSON.stringify({ users: [{ id: 'not a snowflake' }] })));
    const answer = (await response.json()) as { code: number; errors: Record<string, unknown> };
    assert.equal(response.status, 400);
    assert.equal(answer.code, 50035);
    for (const user of users) assert.equal(await storedUser(user.id), 404);
  });

  test('a replace in lines makes the world the lines', async () => {
    const world = exampleWorld();
    const lines = [
      JSON.stringify({ applications: world.applications, oauth2_tokens: world.oauth2_tokens }),
      JSON.stringify({ users: world.users }),
      ...world.guilds.map((guild) => JSON.stringify({ guilds: [guild] })),
    ];
    const response = await send('PUT', lines.join('\n'));
    const answer = (await response.json()) as { users: User[]; guilds: unknown[] };
    assert.equal(response.status, 200);
    assert.equal(answer.users.length, world.users.length);
    assert.equal(answer.guilds.length, world.guilds.length);
    assert.equal(await storedUser(userOf(10).id), 404, 'the merged users are gone');
  });

  test('a million bad lines: the first issues are reported, the body is read no further (issue 35 item 9)', async () => {
    const lineCount = 1_000_000;
    const response = await send('POST', '1\n'.repeat(lineCount));
    const text = await response.text();
    assert.equal(response.status, 400);
    const answer = JSON.parse(text) as { code: number; errors: Record<string, { _errors: unknown[] }> };
    assert.equal(answer.code, 50035);
    const reported = Object.keys(answer.errors);
    assert.equal(reported.length, ISSUES_REPORTED_MAX);
    assert.deepEqual(reported.slice(0, 2), ['0', '1']);
    // The answer was 107 MB: it is now bounded whatever the number of lines.
    assert.ok(text.length < 200 * 1024, `${text.length} bytes`);
  });

  test('one JSON body of 200,000 bad items is answered with the first issues only', async () => {
    const response = await send('POST', JSON.stringify({ users: Array(200_000).fill(1) }), 'application/json');
    const text = await response.text();
    assert.equal(response.status, 400, text.slice(0, 200));
    const answer = JSON.parse(text) as { code: number };
    assert.equal(answer.code, 50035);
    assert.equal(text.match(/"code":"/g)?.length, ISSUES_REPORTED_MAX);
    assert.ok(text.length < 200 * 1024, `${text.length} bytes`);
  });

  test('lines are for the world imports alone, and need the admin token', async () => {
    const line = JSON.stringify({ users: [userOf(30)] });
    const unauthenticated = await send('POST', line, WORLD_LINES_TYPE, null);
    assert.equal(unauthenticated.status, 401);
    await unauthenticated.arrayBuffer();
    const elsewhere = await fetch(`${server.url}/admin/users/${userOf(30).id}`, {
      method: 'PUT',
      headers: { authorization: ADMIN_AUTH, 'content-type': WORLD_LINES_TYPE },
      body: line,
    });
    const refusal = (await elsewhere.json()) as { code: number };
    assert.equal(elsewhere.status, 400);
    assert.equal(refusal.code, 50035);
    assert.equal(await storedUser(userOf(30).id), 404);
  });
});
