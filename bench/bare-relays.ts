/**
 * The baselines of the sustained-interactions rows (bench/growth.bench.ts): the least a relay of
 * interactions must do, on bare node:http (and `ws`), in a child process.
 * - HTTP delivery: `POST /api/v10/interactions` gives the invocation an id and a token, signs it
 *   (Ed25519 over timestamp + body, as v10 requires), POSTs it to the app on a kept-alive
 *   connection and answers with the app's answer.
 * - Gateway: one v10 session (HELLO, READY, ACKs); `POST /api/v10/interactions` sends
 *   INTERACTION_CREATE to it and answers at once; `POST .../callback` answers 204.
 * Neither stores anything: the figure they set is the pace of the transport itself.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { REPO_ROOT } from './processes.js';

export interface BareRelay {
  url: string;
  /** The HTTP relay's Ed25519 public key (hex, as the app verifies with); the gateway relay's URL for sessions. */
  detail: string;
  stop(): Promise<void>;
}

const HTTP_RELAY_SCRIPT = `
  const http = require('node:http');
  const crypto = require('node:crypto');
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ed25519');
  const publicHex = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let appUrl = null;
  let count = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/app') { appUrl = new URL(Buffer.concat(chunks).toString()); res.writeHead(204); return res.end(); }
      const invocation = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const id = String(++count);
      const body = JSON.stringify({ ...invocation, id, token: 'bare-token-' + id, version: 1 });
      const timestamp = String(Math.floor(Date.now() / 1000));
      const signature = crypto.sign(null, Buffer.from(timestamp + body), privateKey).toString('hex');
      const out = http.request({
        agent, host: appUrl.hostname, port: appUrl.port, path: appUrl.pathname, method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body),
          'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp },
      }, (answer) => {
        const parts = [];
        answer.on('data', (c) => parts.push(c));
        answer.on('end', () => {
          const reply = JSON.stringify({ id, state: answer.statusCode === 200 ? 'responded' : 'failed', response: JSON.parse(Buffer.concat(parts).toString() || 'null') });
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(reply) });
          res.end(reply);
        });
      });
      out.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port + ' ' + publicHex));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

const GATEWAY_RELAY_SCRIPT = `
  const http = require('node:http');
  const { WebSocketServer } = require('ws');
  let bot = null;
  let count = 0;
  let seq = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.url.endsWith('/callback')) { res.writeHead(204); return res.end(); }
      const invocation = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const id = String(++count);
      bot.send(JSON.stringify({ op: 0, s: ++seq, t: 'INTERACTION_CREATE', d: { ...invocation, id, token: 'bare-token-' + id, version: 1 } }));
      const reply = JSON.stringify({ id, state: 'pending' });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(reply) });
      res.end(reply);
    });
  });
  const wss = new WebSocketServer({ server, perMessageDeflate: false });
  wss.on('connection', (ws) => {
    ws.send(JSON.stringify({ op: 10, d: { heartbeat_interval: 41250 }, s: null, t: null }));
    ws.on('message', (data) => {
      const payload = JSON.parse(data.toString());
      if (payload.op === 1) ws.send(JSON.stringify({ op: 11, d: null, s: null, t: null }));
      else if (payload.op === 2) { bot = ws; ws.send(JSON.stringify({ op: 0, s: ++seq, t: 'READY', d: { v: 10, session_id: 'bare' } })); }
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const port = server.address().port;
    console.log('listening on http://127.0.0.1:' + port + ' ws://127.0.0.1:' + port);
  });
  process.on('SIGTERM', () => { for (const c of wss.clients) c.terminate(); server.close(() => process.exit(0)); });
`;

async function startRelay(script: string): Promise<BareRelay> {
  const child = spawn(process.execPath, ['-e', script], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const [url, detail] = await new Promise<[string, string]>((resolve, reject) => {
    lines.on('line', (line) => {
      const match = /listening on (\S+) (\S+)/.exec(line);
      if (match) resolve([match[1]!, match[2]!]);
    });
    child.once('exit', (code) => reject(new Error(`bare relay exited early (${code})`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url, detail, stop };
}

/** The bare HTTP-delivery relay; `detail` is its public key. Tell it the app's URL with `relayTo`. */
export function startBareHttpRelay(): Promise<BareRelay> {
  return startRelay(HTTP_RELAY_SCRIPT);
}

/** Points the bare HTTP relay at the app's interactions endpoint. */
export async function relayTo(relay: BareRelay, appEndpoint: string): Promise<void> {
  const response = await fetch(`${relay.url}/app`, { method: 'POST', body: appEndpoint });
  if (response.status !== 204) throw new Error(`bare relay refused the app URL: ${response.status}`);
}

/** The bare gateway relay; `detail` is its gateway URL. */
export function startBareGatewayRelay(): Promise<BareRelay> {
  return startRelay(GATEWAY_RELAY_SCRIPT);
}
