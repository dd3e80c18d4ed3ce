/**
 * The gateway over `encoding=etf` on a real loopback slashd, with erlpack (built from the registry)
 * packing and unpacking on the client side: every payload is a binary ETF frame (also inside a
 * zlib stream), dispatches are byte for byte what erlpack makes of the payload a JSON client gets,
 * the client's ETF commands (IDENTIFY, heartbeats, RESUME) are read, and what is not ETF closes
 * with 4002 (an unknown op 4001), as on a JSON connection.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { constants, inflateSync } from 'node:zlib';
import erlpack from 'erlpack';
import WebSocket from 'ws';
import { GatewayClient } from './helpers/gateway-client.js';
import { Inbox } from './helpers/inbox.js';
import { startServer, type TestServer } from './helpers/server.js';
import { DEMO_BOT_TOKEN, TEST_GUILD_ID } from './helpers/world.js';

type Payload = { op: number; d: any; s: number | null; t: string | null };

interface Frame {
  bytes: Buffer;
  binary: boolean;
}

/** A raw ETF gateway client: erlpack both ways, the zlib stream inflated frame by frame. */
class EtfClient {
  readonly frames: Frame[] = [];
  /** The ETF bytes of each payload (after inflating), in order. */
  readonly terms: Buffer[] = [];
  readonly payloads = new Inbox<Payload>((p) => `op ${p.op} ${p.t ?? ''}`);
  readonly closed = new Inbox<{ code: number; reason: string }>((c) => `close ${c.code}`);
  private stream = Buffer.alloc(0);
  private inflated = 0;

  private constructor(
    readonly ws: WebSocket,
    readonly zlib: boolean,
  ) {
    ws.on('message', (data: Buffer, binary) => {
      this.frames.push({ bytes: data, binary });
      const bytes = this.zlib ? this.inflate(data) : data;
      this.terms.push(bytes);
      this.payloads.push(erlpack.unpack(bytes) as Payload);
    });
    ws.on('close', (code, reason) => this.closed.push({ code, reason: reason.toString() }));
    ws.on('error', () => undefined);
  }

  static async connect(server: TestServer, query: string): Promise<EtfClient> {
    const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/?${query}`, { perMessageDeflate: false });
    const client = new EtfClient(ws, query.includes('compress=zlib-stream'));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return client;
  }

  /** Inflating the whole stream again is slow but simple, and a test's stream is short. */
  private inflate(frame: Buffer): Buffer {
    this.stream = Buffer.concat([this.stream, frame]);
    const all = inflateSync(this.stream, { finishFlush: constants.Z_SYNC_FLUSH });
    const next = all.subarray(this.inflated);
    this.inflated = all.length;
    return next;
  }

  send(payload: unknown): void {
    this.ws.send(erlpack.pack(payload));
  }

  next(match: (p: Payload) => boolean, what: string): Promise<Payload> {
    return this.payloads.find(match, what);
  }

  dispatch(t: string): Promise<Payload> {
    return this.next((p) => p.op === 0 && p.t === t, t);
  }

  async login(): Promise<Payload> {
    await this.next((p) => p.op === 10, 'HELLO');
    this.send({
      op: 2,
      d: { token: DEMO_BOT_TOKEN, intents: 1, properties: { os: 'linux', browser: 'etf', device: 'etf' } },
    });
    return this.dispatch('READY');
  }

  async closedWith(): Promise<number> {
    return (await this.closed.find(() => true, 'close')).code;
  }
}

describe('the gateway over ETF', () => {
  let server: TestServer;
  const clients: { ws: WebSocket }[] = [];

  before(async () => {
    server = await startServer();
  });

  after(async () => {
    for (const client of clients) client.ws.terminate();
    await server.close();
  });

  async function connect(query: string): Promise<EtfClient> {
    const client = await EtfClient.connect(server, query);
    clients.push(client);
    return client;
  }

  test('HELLO, READY, GUILD_CREATE and heartbeat ACKs: binary ETF frames, ETF commands read', async () => {
    const client = await connect('v=10&encoding=etf');
    const ready = await client.login();
    assert.equal(ready.d.v, 10);
    assert.equal(typeof ready.d.session_id, 'string');
    assert.equal(ready.d.user.bot, true);
    assert.match(ready.d.user.id, /^\d+$/, 'snowflakes arrive as strings');
    const guild = await client.dispatch('GUILD_CREATE');
    assert.equal(guild.d.id, TEST_GUILD_ID);
    client.send({ op: 1, d: guild.s });
    const ack = await client.next((p) => p.op === 11, 'HEARTBEAT_ACK');
    assert.deepEqual(ack, { op: 11, d: null, s: null, t: null });
    assert.deepEqual(client.terms[0]!.subarray(0, 1), Buffer.from([131]));
    for (const frame of client.frames) {
      assert.equal(frame.binary, true, 'a binary frame');
      assert.equal(frame.bytes[0], 131, 'an ETF term');
    }
  });

  test('a dispatch is byte for byte what erlpack makes of the payload a JSON client reads', async () => {
    const etf = await connect('v=10&encoding=etf');
    await etf.login();
    const etfGuild = await etf.dispatch('GUILD_CREATE');
    const json = await GatewayClient.connect(server.url);
    clients.push(json);
    await json.login(DEMO_BOT_TOKEN, 1);
    const jsonGuild = await json.nextDispatch('GUILD_CREATE');
    assert.equal(etfGuild.s, jsonGuild.s);
    assert.deepEqual(etfGuild, jsonGuild);
    const index = etf.payloads.all().indexOf(etfGuild);
    assert.ok(etf.terms[index]!.equals(erlpack.pack(jsonGuild)));
  });

  test('ETF in a zlib stream: each frame ends in 00 00 ff ff and inflates to the next ETF payload', async () => {
    const client = await connect('v=10&encoding=etf&compress=zlib-stream');
    await client.login();
    await client.dispatch('GUILD_CREATE');
    client.send({ op: 1, d: 2 });
    await client.next((p) => p.op === 11, 'HEARTBEAT_ACK');
    for (const frame of client.frames) {
      assert.equal(frame.binary, true);
      assert.equal(frame.bytes.subarray(-4).toString('hex'), '0000ffff');
    }
    for (const term of client.terms) assert.equal(term[0], 131);
  });

  test('RESUME over ETF: the missed dispatches replayed as ETF, then RESUMED', async () => {
    const first = await connect('v=10&encoding=etf');
    const ready = await first.login();
    const guild = await first.dispatch('GUILD_CREATE');
    first.ws.terminate();
    const sessionId = ready.d.session_id as string;
    while (server.slashd.gateway.isAttached(sessionId)) await new Promise((resolve) => setImmediate(resolve));
    server.slashd.bus.publish('WORLD_DISPATCH', {
      t: 'GUILD_ROLE_UPDATE',
      guildId: TEST_GUILD_ID,
      channelId: null,
      recipientIds: [],
      d: { guild_id: TEST_GUILD_ID, role: { id: TEST_GUILD_ID, name: 'while away' } },
    });
    await server.slashd.gateway.settled();
    const second = await connect('v=10&encoding=etf');
    await second.next((p) => p.op === 10, 'HELLO');
    second.send({ op: 6, d: { token: DEMO_BOT_TOKEN, session_id: sessionId, seq: guild.s } });
    const missed = await second.dispatch('GUILD_ROLE_UPDATE');
    assert.equal(missed.s, guild.s! + 1);
    assert.equal(missed.d.role.name, 'while away');
    assert.equal((await second.dispatch('RESUMED')).s, guild.s! + 2);
  });

  test('4002 for JSON text, bytes that are not ETF, or over 4096 bytes; 4001 for an unknown op', async () => {
    const text = await connect('v=10&encoding=etf');
    await text.next((p) => p.op === 10, 'HELLO');
    text.ws.send('{"op":1,"d":null}');
    assert.equal(await text.closedWith(), 4002);

    const garbage = await connect('v=10&encoding=etf');
    await garbage.next((p) => p.op === 10, 'HELLO');
    garbage.ws.send(Buffer.from([131, 108, 0xff, 0xff, 0xff, 0xff]));
    assert.equal(await garbage.closedWith(), 4002);

    const large = await connect('v=10&encoding=etf');
    await large.next((p) => p.op === 10, 'HELLO');
    large.send({ op: 1, d: null, padding: 'x'.repeat(4096) });
    assert.equal(await large.closedWith(), 4002);

    const unknown = await connect('v=10&encoding=etf');
    await unknown.next((p) => p.op === 10, 'HELLO');
    unknown.send({ op: 99, d: null });
    assert.equal(await unknown.closedWith(), 4001);

    const etfOnJson = await GatewayClient.connect(server.url);
    clients.push(etfOnJson);
    await etfOnJson.nextOp(10);
    etfOnJson.ws.send(erlpack.pack({ op: 1, d: null }));
    assert.equal((await etfOnJson.closedWith()).code, 4002);
  });
});
