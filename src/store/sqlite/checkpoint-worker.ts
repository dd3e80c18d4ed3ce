/**
 * Runs in a worker thread: checkpoints the WAL of one database file on a timer, on a connection
 * of its own, so that the copy back into the database and its fsync never block the event loop
 * that serves requests. PASSIVE mode never waits for readers or writers. When a tick finds no new
 * frames since the last one, writes have paused: the worker says so ('quiet'), and the serving
 * connection empties the WAL file with a TRUNCATE checkpoint of its own (./checkpointer.ts), which
 * would otherwise keep the size of the largest burst of writes. Not here: a TRUNCATE by another
 * connection moves the serving connection's `data_version`, which reads as another process's
 * write and empties every read cache (issue 40: every ~15 s with no client write at all).
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

interface CheckpointWorkerData {
  path: string;
  intervalMs: number;
  journalSizeLimit: number;
}

const { path, intervalMs, journalSizeLimit } = workerData as CheckpointWorkerData;
const db = new Database(path);
db.pragma('busy_timeout = 1000');
db.pragma(`journal_size_limit = ${journalSizeLimit}`);

interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

/** Frames in the WAL at the previous tick; the same count again means no write came in between. */
let previousLog = 0;

function tick(): void {
  const [result] = db.pragma('wal_checkpoint(PASSIVE)') as CheckpointResult[];
  if (!result) return;
  const paused = result.log > 0 && result.log === previousLog && result.checkpointed === result.log;
  previousLog = result.log;
  if (paused) parentPort?.postMessage('quiet');
}

const timer = setInterval(() => {
  try {
    tick();
  } catch {
    // A busy database is checkpointed on the next tick; nothing is lost by skipping one.
  }
}, intervalMs);

parentPort?.on('message', (message: unknown) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  // With the port closed and the timer gone, the thread has nothing left to do and exits.
  parentPort?.close();
});
