/**
 * Arbitrary client payloads never crash the gateway nor leak past a close code: after IDENTIFY, any
 * op with any `d` either gets an answer or closes the connection with a v10 code (4000–4014), and
 * the node keeps serving (a fresh client logs in afterwards, Object.prototype untouched).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { type Closed, GatewayClient, type Payload } from './helpers/gateway-client.js';
import { startServer, type TestServer } from './helpers/server.js';
import { DEMO_BOT_TOKEN, TEST_GUILD_ID } from './helpers/world.js';

const anyValue = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(TEST_GUILD_ID, [TEST_GUILD_ID], { guild_id: TEST_GUILD_ID, user_ids: 'x' }, { __proto__x: 1 }),
);

/**
 * What the gateway did after the payload and a heartbeat: answered (HEARTBEAT_ACK, or an INVALID
 * SESSION) or closed. Neither, within the client's wait limit, fails the run: a gateway that stops
 * answering is the crash this test looks for.
 */
async function answerOrClose(client: GatewayClient): Promise<Payload | Closed> {
  try {
    return await client.next((p) => p.op === 11 || p.op === 9, 'answer to the heartbeat, nor a close');
  } catch (error) {
    if (client.closed) return client.closed;
    throw error;
  }
}

describe('gateway fuzz', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server.close();
  });

  test('any op with any d, after IDENTIFY: an answer or a v10 close, never a crash', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(1, 2, 3, 4, 6, 8, 31, 0, 7, 99),
        anyValue,
        fc.boolean(),
        async (op, d, identified) => {
          const client = await GatewayClient.connect(server.url);
          try {
            if (identified) await client.login(DEMO_BOT_TOKEN, 0);
            else await client.nextOp(10);
            client.send({ op, d });
            // A heartbeat after it: answered if the connection is still open, else the close shows.
            client.send({ op: 1, d: null });
            await answerOrClose(client);
            if (client.closed) {
              assert.ok(client.closed.code >= 4000 && client.closed.code <= 4014, `close ${client.closed.code}`);
            }
          } finally {
            client.drop();
          }
        },
      ),
      { numRuns: 150 },
    );
    assert.equal(({} as Record<string, unknown>).x, undefined);
    const fresh = await GatewayClient.connect(server.url);
    const ready = await fresh.login(DEMO_BOT_TOKEN, 1);
    assert.equal(ready.d.v, 10);
    fresh.drop();
  });
});
