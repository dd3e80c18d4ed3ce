/**
 * An unmodified eris `Client` with erlpack installed (both from the registry, erlpack built from
 * source) against slashd: eris then asks for `encoding=etf` by itself, packs what it sends with
 * erlpack and unpacks what it receives. It logs in, receives READY and its guild, and answers
 * slash commands with its own `createMessage`; once over plain ETF and once over ETF in a
 * zlib stream (eris's `compress`, inflated by pako 1: eris reads `result`
 * after each Z_SYNC_FLUSH push, which pako 2 and later only fill at the end of the stream). eris speaks HTTPS only: its documented `agent`
 * option carries its REST requests to slashd's loopback port, as a TLS proxy in front would.
 * Every wait is on an event, with a guard for failure only.
 */
import assert from 'node:assert/strict';
import { Agent as HttpsAgent, type RequestOptions } from 'node:https';
import { connect as netConnect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { constants, inflateSync } from 'node:zlib';
import { Client, CommandInteraction, type Interaction } from 'eris';
import erlpack from 'erlpack';
import type WebSocket from 'ws';
import { Inbox } from './helpers/inbox.js';
import { startServer, type TestServer } from './helpers/server.js';
import { ALICE_ID, ALICE_TOKEN, BOT, DEMO_APP_ID, DEMO_BOT_TOKEN, GENERAL, TEST_GUILD_ID } from './helpers/world.js';
import { invocationBody } from './helpers/invocation.js';

type Json = any;

const COMMANDS: Json[] = [
  { name: 'hello', description: 'Says hello' },
  {
    name: 'echo',
    description: 'Says it back',
    options: [{ type: 3, name: 'text', description: 'What', required: true }],
  },
];

/** HTTPS requests to slashd's plain HTTP port: the agent opens the connection, https writes on it. */
class LoopbackAgent extends HttpsAgent {
  constructor(private readonly port: number) {
    super({ keepAlive: true });
  }

  override createConnection(_options: RequestOptions) {
    return netConnect(this.port, '127.0.0.1');
  }
}

interface Frame {
  bytes: Buffer;
  binary: boolean;
}

/** What the bot did with one interaction: resolved once its handler has finished. */
interface Handled {
  id: string;
  error: unknown;
}

for (const compress of [false, true]) {
  describe(`an unmodified eris Client with erlpack, over ETF${compress ? ' in a zlib stream' : ''}`, () => {
    let server: TestServer;
    let client: Client;
    let agent: LoopbackAgent;
    const commands: Record<string, Json> = {};
    const raw = new Inbox<Json>((p) => `op ${p.op} ${p.t ?? ''}`);
    const frames: Frame[] = [];
    /** What eris reported as errors (a payload it could not inflate or unpack would land here). */
    const errors: unknown[] = [];
    const handled = new Inbox<Handled>((h) => `handled ${h.id}`);
    const interactions = new Inbox<CommandInteraction>((i) => `interaction ${i.id}`);

    async function answer(interaction: Interaction): Promise<void> {
      if (!(interaction instanceof CommandInteraction)) return;
      interactions.push(interaction);
      if (interaction.data.name === 'hello') {
        await interaction.createMessage(`hello ${interaction.member?.username ?? '?'} from eris over ETF`);
      } else if (interaction.data.name === 'echo') {
        const text = interaction.data.options?.find((o) => o.name === 'text');
        await interaction.createMessage({ content: `echo: ${text && 'value' in text ? String(text.value) : '?'}` });
      }
    }

    before(async () => {
      server = await startServer();
      const deployed = await server.request('PUT', `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`, {
        auth: BOT,
        body: COMMANDS,
      });
      assert.equal(deployed.status, 200, deployed.text);
      for (const command of deployed.body as Json[]) commands[command.name] = command;

      const { host, port } = new URL(server.url);
      agent = new LoopbackAgent(Number(port));
      client = new Client(`Bot ${DEMO_BOT_TOKEN}`, { intents: ['guilds'], compress, rest: { domain: host, agent } });
      client.on('rawWS', (packet: Json) => raw.push(packet));
      client.on('error', (error: unknown) => errors.push(error));
      // The shard's socket, as eris opened it: every frame it receives is recorded as is.
      client.on('connect', (id: number) => {
        const ws = client.shards.get(id)?.ws as WebSocket | null | undefined;
        ws?.on('message', (data: Buffer, binary: boolean) => frames.push({ bytes: data, binary }));
      });
      client.on('interactionCreate', (interaction: Interaction) => {
        answer(interaction).then(
          () => handled.push({ id: interaction.id, error: null }),
          (error: unknown) => handled.push({ id: interaction.id, error }),
        );
      });
      const ready = new Inbox<true>(() => 'ready');
      client.once('ready', () => ready.push(true));
      await client.connect();
      await ready.find(() => true, 'ready');
    });

    after(async () => {
      client?.disconnect({ reconnect: false });
      agent?.destroy();
      await server?.close();
    });

    /** Alice invokes a deployed command in #general; the bot's handler has finished when this resolves. */
    async function invoke(name: string, data: Json = {}): Promise<string> {
      const command = commands[name]!;
      const response = await server.request('POST', '/interactions', {
        auth: ALICE_TOKEN,
        body: invocationBody(command, { data: data }),
      });
      assert.equal(response.status, 200, response.text);
      const id = response.body.id as string;
      const done = await handled.find((h) => h.id === id, `the bot's handling of interaction ${id}`);
      assert.equal(done.error, null, `the bot's answer failed: ${String(done.error)}`);
      return id;
    }

    /** What Alice reads in #general as the answer to an interaction. */
    async function answerTo(id: string): Promise<Json> {
      const response = await server.request('GET', `/channels/${GENERAL}/messages?limit=50`, { auth: ALICE_TOKEN });
      assert.equal(response.status, 200, response.text);
      return (response.body as Json[]).find((m) => m.interaction_metadata?.id === id);
    }

    test('eris chose ETF by itself: the URL asks for it, and every frame is binary ETF', () => {
      const url = new URL(client.gatewayURL!);
      assert.equal(url.searchParams.get('encoding'), 'etf');
      assert.equal(url.searchParams.get('compress'), compress ? 'zlib-stream' : null);
      assert.deepEqual(errors, [], 'eris read every payload');
      assert.ok(frames.length >= 2, 'frames were recorded');
      for (const frame of frames) assert.equal(frame.binary, true, 'a binary frame');
      const stream = Buffer.concat(frames.map((f) => f.bytes));
      const first = compress ? inflateSync(stream, { finishFlush: constants.Z_SYNC_FLUSH }) : frames[0]!.bytes;
      assert.equal(first[0], 131, 'an ETF term');
      if (compress) for (const frame of frames) assert.equal(frame.bytes.subarray(-4).toString('hex'), '0000ffff');
      else assert.equal(erlpack.unpack(frames[0]!.bytes).op, 10, 'HELLO');
    });

    test('logs in: READY with the bot user, then its guild with its channels', () => {
      const ready = raw.all().find((p) => p.t === 'READY');
      assert.ok(ready, 'a READY dispatch');
      assert.equal(ready.d.user.id, DEMO_APP_ID, 'a snowflake read as a string');
      assert.equal(client.user.id, DEMO_APP_ID);
      assert.equal(client.user.bot, true);
      assert.ok(raw.all().some((p) => p.t === 'GUILD_CREATE' && p.d.id === TEST_GUILD_ID));
      const guild = client.guilds.get(TEST_GUILD_ID);
      assert.ok(guild, 'the guild is cached');
      assert.equal(guild.channels.get(GENERAL)?.id, GENERAL);
    });

    test("a slash command: interactionCreate fires and eris's createMessage is what Alice reads", async () => {
      const id = await invoke('hello');
      const interaction = await interactions.find((i) => i.id === id, `interaction ${id}`);
      assert.equal(interaction.member?.id, ALICE_ID);
      assert.equal(interaction.guildID, TEST_GUILD_ID);
      const message = await answerTo(id);
      assert.ok(message, 'the answer is in #general');
      assert.equal(message.content, 'hello alice from eris over ETF');
      assert.equal(message.author.id, DEMO_APP_ID);
    });

    test('an option travels in the ETF dispatch and back through the answer', async () => {
      const text = 'ETF, zlib & “unicode” ✓';
      const id = await invoke('echo', { options: [{ name: 'text', type: 3, value: text }] });
      assert.equal((await answerTo(id)).content, `echo: ${text}`);
    });
  });
}
