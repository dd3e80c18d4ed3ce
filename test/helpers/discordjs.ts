/**
 * discord.js clients as the message tests use them: a bot watching over slashd's gateway (every
 * raw dispatch kept in an inbox), and a REST-only bot, as one handling an interaction is.
 */
import assert from 'node:assert/strict';
import { Client, DiscordAPIError, Events, type GatewayIntentBits } from 'discord.js';
import { Inbox } from './inbox.js';
import type { TestServer } from './server.js';

export type RawDispatch = { t: string | null; d: any };

/** A gateway client of `token`, ready; `setup` adds listeners before it logs in. */
export async function watchingBot(
  server: TestServer,
  token: string,
  intents: GatewayIntentBits[],
  raw: Inbox<RawDispatch>,
  setup: (client: Client) => void = () => undefined,
): Promise<Client> {
  const client = new Client({ intents, rest: { api: `${server.url}/api` } });
  client.on(Events.Raw, (packet: RawDispatch) => raw.push(packet));
  setup(client);
  const ready = new Inbox<string>();
  client.once(Events.ClientReady, () => ready.push('ready'));
  await client.login(token);
  await ready.find(() => true, 'ready');
  return client;
}

/** A REST-only client of `token`, with `guildId` fetched (discord.js keeps a guild's channels in it). */
export async function restBot(server: TestServer, token: string, guildId: string): Promise<Client> {
  const client = new Client({ intents: [], rest: { api: `${server.url}/api` } });
  client.token = token;
  client.rest.setToken(token);
  await client.guilds.fetch(guildId);
  return client;
}

/** A v10 refusal as discord.js throws it: for `assert.rejects`. */
export function v10Error(status: number, code: number) {
  return (error: unknown) => {
    assert.ok(error instanceof DiscordAPIError, String(error));
    assert.equal(error.status, status, error.message);
    assert.equal(error.code, code, error.message);
    return true;
  };
}
