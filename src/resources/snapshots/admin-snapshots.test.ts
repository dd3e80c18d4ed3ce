/**
 * Snapshots over the admin API, for tests in any language: take one, change the world, commands
 * and messages, restore it; reset to the state at start-up or to a given world; bounded in number;
 * admin token only; bad ids and bodies are v10 errors.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_SNAPSHOTS } from './service.js';
import { adminRequest, injectServer, type TestServer } from '../../../test/helpers/server.js';
import { ADMIN_AUTH as ADMIN, ALICE_ID, BOT, GLOBAL_BASE, exampleWorld } from '../../../test/helpers/world.js';

async function commandNames(server: TestServer): Promise<string[]> {
  const listed = await server.request('GET', GLOBAL_BASE, { auth: BOT });
  assert.equal(listed.status, 200, listed.text);
  return (listed.body as { name: string }[]).map((c) => c.name).sort();
}

async function username(server: TestServer, id: string): Promise<string | null> {
  const user = await server.request('GET', `${server.url}/admin/users/${id}`, { auth: ADMIN });
  return user.status === 200 ? (user.body.username as string) : null;
}

describe('admin snapshots and reset', () => {
  let server: TestServer;
  before(async () => {
    server = await injectServer({ config: { snapshotAtStart: true } });
  });
  after(() => server.close());

  test('a restore gives back the commands and the world of the snapshot', async () => {
    await server.request('POST', GLOBAL_BASE, { auth: BOT, body: { name: 'kept', description: 'kept' } });
    const taken = await adminRequest(server, 'POST', '/snapshots');
    assert.equal(taken.status, 201, taken.text);
    assert.match(taken.body.id, /^[0-9]+$/);
    await server.request('POST', GLOBAL_BASE, { auth: BOT, body: { name: 'later', description: 'later' } });
    await adminRequest(server, 'PATCH', `/users/${ALICE_ID}`, { username: 'renamed' });
    assert.deepEqual(await commandNames(server), ['kept', 'later']);
    assert.equal(await username(server, ALICE_ID), 'renamed');

    const restored = await adminRequest(server, 'POST', `/snapshots/${taken.body.id}/restore`);
    assert.equal(restored.status, 204, restored.text);
    assert.deepEqual(await commandNames(server), ['kept']);
    assert.equal(await username(server, ALICE_ID), 'alice');
    const listed = await adminRequest(server, 'GET', '/snapshots');
    assert.ok((listed.body as { id: string }[]).some((s) => s.id === taken.body.id));
    assert.equal((await adminRequest(server, 'DELETE', `/snapshots/${taken.body.id}`)).status, 204);
    assert.equal((await adminRequest(server, 'POST', `/snapshots/${taken.body.id}/restore`)).status, 404);
  });

  test('reset returns to the state at start-up; with a world, to that world alone', async () => {
    await server.request('POST', GLOBAL_BASE, { auth: BOT, body: { name: 'gone', description: 'gone' } });
    const reset = await adminRequest(server, 'POST', '/reset');
    assert.equal(reset.status, 204, reset.text);
    assert.deepEqual(await commandNames(server), []);
    assert.equal(await username(server, ALICE_ID), 'alice');

    const world = exampleWorld();
    world.users.find((u) => u.id === ALICE_ID)!.username = 'alice-of-the-world';
    await server.request('POST', GLOBAL_BASE, { auth: BOT, body: { name: 'gone', description: 'gone' } });
    const toWorld = await adminRequest(server, 'POST', '/reset', { world });
    assert.equal(toWorld.status, 204, toWorld.text);
    assert.equal(await username(server, ALICE_ID), 'alice-of-the-world');
    assert.deepEqual(await commandNames(server), []);
    assert.equal((await adminRequest(server, 'POST', '/reset')).status, 204);
    assert.equal(await username(server, ALICE_ID), 'alice', 'the start-up snapshot is still there');
  });

  test('the number of snapshots is bounded; deleting one makes room', async () => {
    const ids: string[] = [];
    for (;;) {
      const taken = await adminRequest(server, 'POST', '/snapshots');
      if (taken.status !== 201) {
        assert.equal(taken.status, 400, taken.text);
        assert.equal(taken.body.code, 0);
        assert.match(taken.body.message, new RegExp(`\\(${MAX_SNAPSHOTS}\\)`));
        break;
      }
      ids.push(taken.body.id as string);
      assert.ok(ids.length <= MAX_SNAPSHOTS, 'refused beyond the bound');
    }
    assert.equal(ids.length, MAX_SNAPSHOTS);
    assert.equal((await adminRequest(server, 'DELETE', `/snapshots/${ids[0]!}`)).status, 204);
    assert.equal((await adminRequest(server, 'POST', '/snapshots')).status, 201);
    for (const id of (await adminRequest(server, 'GET', '/snapshots')).body as { id: string }[]) {
      if (id.id !== '0') await adminRequest(server, 'DELETE', `/snapshots/${id.id}`);
    }
  });

  test('refusals: no admin token, unknown or malformed ids, an invalid world', async () => {
    const anonymous = await server.request('POST', `${server.url}/admin/snapshots`);
    assert.equal(anonymous.status, 401);
    const asBot = await server.request('POST', `${server.url}/admin/reset`, { auth: BOT });
    assert.equal(asBot.status, 401);
    for (const id of ['123', 'abc', '1;DROP', '9'.repeat(40)]) {
      const answer = await adminRequest(server, 'POST', `/snapshots/${encodeURIComponent(id)}/restore`);
      assert.equal(answer.status, 404, `${id}: ${answer.text}`);
      assert.deepEqual(answer.body, { message: 'Unknown snapshot', code: 0 });
    }
    const invalid = await adminRequest(server, 'POST', '/reset', { world: { users: 'nobody' } });
    assert.equal(invalid.status, 400, invalid.text);
    assert.equal(invalid.body.code, 50035);
    assert.equal(await username(server, ALICE_ID), 'alice', 'nothing changed');
    const notAnObject = await adminRequest(server, 'POST', '/reset', [1]);
    assert.equal(notAnObject.status, 400);
  });
});

describe('reset without a start-up snapshot', () => {
  test('is refused with a sentence saying how to get one', async () => {
    const server = await injectServer();
    try {
      const answer = await adminRequest(server, 'POST', '/reset');
      assert.equal(answer.status, 400, answer.text);
      assert.match(answer.body.message, /--snapshot-at-start/);
    } finally {
      await server.close();
    }
  });
});
