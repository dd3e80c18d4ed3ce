/**
 * Runs in a worker thread: checkpoints the WAL of one database file on a timer, on a connection
 * of its own, so that the copy back into the database and its fsync never block the event loop
 * that serves requests. PASSIVE mode never waits for readers or writers.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

interface CheckpointWorkerData {
  path: string;
  intervalMs: number;
}

const { path, intervalMs } = workerData as CheckpointWorkerData;
const db = new Database(path);
db.pragma('busy_timeout = 1000');

const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
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
