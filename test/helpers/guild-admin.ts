/**
 * A test guild changed through the admin API, as an operator would: an app's bot installed, or its
 * install's permission bits widened (what v10's managed bot role would be given).
 */
import assert from 'node:assert/strict';
import type { Guild as WorldGuild, Install } from '../../src/core/world/types.js';
import type { TestServer } from './server.js';
import { ADMIN_TOKEN } from './world.js';

const ADMIN = `Bearer ${ADMIN_TOKEN}`;

/** The guild's installs changed by `change`, written back whole. */
async function changeInstalls(server: TestServer, guildId: string, change: (installs: Install[]) => Install[]) {
  const stored = await server.request('GET', `${server.url}/admin/guilds/${guildId}`, { auth: ADMIN });
  assert.equal(stored.status, 200, stored.text);
  const guild = stored.body as unknown as WorldGuild;
  const put = await server.request('PUT', `${server.url}/admin/guilds/${guildId}`, {
    auth: ADMIN,
    body: { ...guild, installs: change(guild.installs) },
  });
  assert.equal(put.status, 200, put.text);
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
