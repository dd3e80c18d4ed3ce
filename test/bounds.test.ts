/**
 * Bounded resources: what a misbehaving peer can make slashd hold. An endpoint's huge answer is
 * cut off, an unauthenticated upload is refused before its body is read, a slow upload is cut off
 * by the request timeout, and the WAL file shrinks back once writes pause.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { MAX_DELIVERY_RESPONSE_BYTES } from '../src/delivery/http-delivery.js';
import { JOURNAL_SIZE_LIMIT_BYTES, WalCheckpointer } from '../src/store/sqlite/checkpointer.js';
import { DEFAULT_BODY_LIMIT_BYTES } from '../src/http/limits.js';
import { startServer, type TestServer } from './helpers/server.js';
import { answerHeads } from './helpers/raw-http.js';
import { ALICE_TOKEN as ALICE } from './helpers/world.js';

/** RSS growth allowed for one delivery whose endpoint answers 100 MB. */
const MAX_RSS_GROWTH_BYTES = 20 * 1024 * 1024;

interface RawExchange {
  /** What the server sent before it closed the connection. */
  received: string;
  /** Body bytes the client had written when the server closed. */
  bodyBytesSent: number;
}

/**
 * Sends `head` on a raw socket, then trickles `trickle` body bytes (one per 20 ms, only while
 * the socket is open) and resolves when the server closes the connection.
 */
function rawExchange(port: number, head: string, trickle = 0): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let bodyBytesSent = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (data: string) => (received += data));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ received, bodyBytesSent });
    });
    socket.on('connect', () => {
      socket.write(head);
      if (trickle === 0) return;
      timer = setInterval(() => {
        if (bodyBytesSent >= trickle || socket.destroyed) return clearInterval(timer);
        socket.write('{');
        bodyBytesSent += 1;
      }, 20);
    });
    socket.on('timeout', () => reject(new Error('no close')));
  });
}

function requestHead(path: string, headers: Record<string, string>): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return [`POST ${path} HTTP/1.1`, 'host: 127.0.0.1', ...lines, '', ''].join('\r\n');
}

describe('a delivery whose endpoint answers 100 MB', () => {
  it('fails with the reason and grows RSS by less than 20 MB', { timeout: 120_000 }, async () => {
    const child = fileURLToPath(new URL('./helpers/big-answer-child.js', import.meta.url));
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--expose-gc', child], { maxBuffer: 1024 * 1024 }, (error, out) =>
        error instanceof Error ? reject(error) : resolve(out),
      );
    });
    const result = JSON.parse(stdout) as {
      outcome: { kind: string; reason?: string };
      growthBytes: number;
      peakGrowthBytes: number;
    };
    assert.deepEqual(result.outcome, {
      kind: 'failed',
      reason: `the endpoint's response exceeded ${MAX_DELIVERY_RESPONSE_BYTES} bytes`,
      cause: 'too_large',
    });
    assert.ok(result.growthBytes < MAX_RSS_GROWTH_BYTES, `RSS grew ${result.growthBytes} bytes`);
    assert.ok(
      result.peakGrowthBytes < MAX_RSS_GROWTH_BYTES,
      `RSS peaked ${result.peakGrowthBytes} bytes above the start`,
    );
  });
});

describe('uploads to POST /api/v10/interactions', () => {
  let server: TestServer;
  let port: number;

  before(async () => {
    server = await startServer({ timeouts: { requestTimeoutMs: 300 } });
    port = Number(new URL(server.url).port);
  });
  after(async () => server?.close());

  it(
    'without a token get the v10 401 and a closed connection before any body byte is read',
    { timeout: 20_000 },
    async () => {
      const head = requestHead('/api/v10/interactions', {
        'content-type': 'application/json',
        'content-length': String(100 * 1024 * 1024),
      });
      const { received, bodyBytesSent } = await rawExchange(port, head);
      assert.equal(bodyBytesSent, 0);
      assert.match(received, /^HTTP\/1\.1 401 /);
      assert.match(received, /connection: close/i);
      assert.ok(received.endsWith('{"message":"401: Unauthorized","code":0}'), received);
    },
  );

  it('without a token and without a body get the 401 on a connection kept for the next request', async () => {
    const get = 'GET /api/v10/users/@me HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n';
    const heads = await answerHeads({ host: '127.0.0.1', port }, get + get, 2);
    assert.equal(heads.length, 2, 'both answers came on one connection');
    for (const head of heads) {
      assert.match(head, /^HTTP\/1\.1 401 /);
      assert.doesNotMatch(head, /^connection: close/im);
    }
  });

  it('with a bad token get 401 the same way', { timeout: 20_000 }, async () => {
    const head = requestHead('/api/v10/interactions', {
      authorization: 'not-a-token',
      'content-type': 'application/json',
      'content-length': '4000000',
    });
    const { received } = await rawExchange(port, head);
    assert.match(received, /^HTTP\/1\.1 401 /);
  });

  it('with a token and a body over the route limit get the v10 413', async () => {
    // A server of its own with the default request timeout: this suite's 300 ms would cut off the
    // large body itself on a loaded machine (408), and the bound under test is the size.
    const roomy = await startServer();
    try {
      const content = 'x'.repeat(DEFAULT_BODY_LIMIT_BYTES);
      const response = await roomy.request('POST', '/interactions', { auth: ALICE, body: { content } });
      assert.equal(response.status, 413, response.text);
      assert.deepEqual(response.body, { message: 'Request entity too large', code: 0 });
    } finally {
      await roomy.close();
    }
  });

  it('with a token, sent slowly, are cut off by the request timeout', { timeout: 20_000 }, async () => {
    const length = 10_000;
    const head = requestHead('/api/v10/interactions', {
      authorization: ALICE,
      'content-type': 'application/json',
      'content-length': String(length),
    });
    const { received, bodyBytesSent } = await rawExchange(port, head, length);
    assert.ok(bodyBytesSent < length, 'the server closed before the body was complete');
    assert.match(received, /^HTTP\/1\.1 408 /, received);
    assert.ok(received.endsWith('{"message":"408: Request Timeout","code":0}'), received);
  });
});

describe('the WAL under sustained writes', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'slashd-wal-bound-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is truncated to at most journal_size_limit once writes pause', { timeout: 60_000 }, async () => {
    const path = join(dir, 'db.sqlite');
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)');
    const keepAlive = setInterval(() => undefined, 1000);
    const checkpointer = new WalCheckpointer(
      path,
      {
        onLost: () => undefined,
        truncate: () => (db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[])[0]?.busy === 0,
      },
      20,
    );
    try {
      const truncated = new Promise<void>((resolve) => checkpointer.onTruncated(resolve));
      const insert = db.prepare('INSERT OR REPLACE INTO t (id, v) VALUES (?, ?)');
      const blob = Buffer.alloc(64 * 1024, 1);
      // One transaction larger than the limit: the WAL cannot restart in the middle of it.
      db.transaction(() => {
        for (let i = 0; i < (JOURNAL_SIZE_LIMIT_BYTES / blob.length) * 1.5; i += 1) insert.run(i, blob);
      })();
      const grown = statSync(`${path}-wal`).size;
      assert.ok(grown > JOURNAL_SIZE_LIMIT_BYTES, `the WAL grew to ${grown} bytes`);
      await truncated;
      const size = statSync(`${path}-wal`).size;
      assert.ok(size <= JOURNAL_SIZE_LIMIT_BYTES, `the WAL is ${size} bytes after the pause`);
      assert.equal(size, 0);
    } finally {
      await checkpointer.stop();
      clearInterval(keepAlive);
      db.close();
    }
  });
});
