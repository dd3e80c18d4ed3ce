/**
 * A test guild changed through the admin API, as an operator would: an app's bot installed, its
 * install's permission bits widened (what v10's managed bot role would be given), or anything else.
 */
import assert from 'node:assert/strict';
import type { Guild as WorldGuild, Install } from '../../src/core/world/types.js';
import type { TestServer } from './server.js';
import { ADMIN_TOKEN } from './world.js';

const ADMIN = `Bearer ${ADMIN_TOKEN}`;

/** The guild as the world file has it, changed by `change` and written back whole. */
export async function changeWorldGuild(server: TestServer, guildId: string, change: (guild: WorldGuild) => WorldGuild) {
  const stored = await server.request('GET', `${server.url}/admin/guilds/${guildId}`, { auth: ADMIN });
  assert.equal(stored.status, 200, stored.text);
  const put = await server.request('PUT', `${server.url}/admin/guilds/${guildId}`, {
    auth: ADMIN,
    body: change(stored.body),
  });
  assert.equal(put.status, 200, put.text);
}

function changeInstalls(server: TestServer, guildId: string, change: (installs: Install[]) => Install[]) {
  return changeWorldGuild(server, guildId, (guild) => ({ ...guild, installs: change(guild.installs) }));
}

/** Adds `bits` to the app's install in the guild (it must be installed there). */
export function grantBotBits(server: TestServer, guildId: string, applicationId: string, bits: bigint) {
  return changeInstalls(server, guildId, (installs) =>
    installs.map((install) =>
      install.application_id === applicationId
        ? { ...install, permissions: String(BigInt(install.permissions ?? '0') | bits) }
        : install,
    ),
  );
}

/** Installs the app's bot in the guild with exactly `bits`. */
export function installBot(server: TestServer, guildId: string, applicationId: string, bits: bigint) {
  return changeInstalls(server, guildId, (installs) => [
    ...installs.filter((install) => install.application_id !== applicationId),
    { application_id: applicationId, scopes: ['bot', 'applications.commands'], permissions: String(bits) },
  ]);
}
