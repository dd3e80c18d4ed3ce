/**
 * Run in a child node with --expose-gc by bounds.test.ts, so its RSS is its own: an interactions
 * endpoint on loopback answers 200 with a 100 MB body; one delivery to it is made, and the child
 * prints the outcome and how much its RSS grew.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpDelivery } from '../../src/delivery/http-delivery.js';
import type { StoredApplication } from '../../src/store/store.js';

/** The endpoint's answer: 100 MB, streamed in 64 KiB chunks without a Content-Length. */
const ANSWER_BYTES = 100 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'a');

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

const server = createServer((request, response) => {
  request.resume();
  response.writeHead(200, { 'content-type': 'application/json' });
  let sent = 0;
  const pump = () => {
    while (sent < ANSWER_BYTES) {
      sent += CHUNK.length;
      if (!response.write(CHUNK)) return void response.once('drain', pump);
    }
    response.end();
  };
  pump();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;

const { privateKey } = generateKeyPairSync('ed25519');
const app = {
  id: '1',
  keys: { privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString() },
} as unknown as StoredApplication;
const delivery = new HttpDelivery(Date.now);
gc();
const before = process.memoryUsage().rss;
let peak = before;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
const outcome = await delivery.deliver(app, `http://127.0.0.1:${port}/interactions`, { type: 2 }, 60_000);
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
gc();
const after = process.memoryUsage().rss;
process.stdout.write(JSON.stringify({ outcome, growthBytes: after - before, peakGrowthBytes: peak - before }));
server.closeAllConnections();
server.close();
