/**
 * The baseline of the growth bench's gateway row (bench/growth-fixed-rows.ts): the least a relay of
 * interactions over the gateway must do, on bare node:http and `ws`, in a child process: one v10
 * session (HELLO, READY, ACKs); `POST /api/v10/interactions` sends INTERACTION_CREATE to it and
 * answers at once; `POST .../callback` answers 204. It stores nothing: the figure it sets is the
 * pace of the transport itself. (The HTTP-delivery relay is bench/interaction-polls.bench.ts's.)
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { REPO_ROOT } from './processes.js';

export interface BareRelay {
  url: string;
  /** The gateway URL for sessions. */
  detail: string;
  /** The relay's process (its CPU time is a baseline's). */
  pid: number | undefined;
  stop(): Promise<void>;
}

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
  return { url, detail, pid: child.pid, stop };
}

/** The bare gateway relay; `detail` is its gateway URL. */
export function startBareGatewayRelay(): Promise<BareRelay> {
  return startRelay(GATEWAY_RELAY_SCRIPT);
}
