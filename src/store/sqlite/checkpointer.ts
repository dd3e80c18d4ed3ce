/**
 * Moves WAL checkpoints off the serving thread (see checkpoint-worker.ts). Should the worker ever
 * stop on its own, the connection goes back to SQLite's own automatic checkpoints, so the WAL
 * cannot grow without bound.
 */
import { Worker } from 'node:worker_threads';

/** How often the worker checkpoints, in ms. */
export const CHECKPOINT_INTERVAL_MS = 200;
/** SQLite's default automatic checkpoint threshold, in pages: the fallback. */
export const AUTOCHECKPOINT_PAGES = 1000;
/** The WAL is cut back to this size whenever it restarts (SQLite's journal_size_limit), in bytes. */
export const JOURNAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;

/** What the checkpointer needs of the connection that serves requests. */
export interface CheckpointedConnection {
  /** Called should the worker stop on its own: SQLite's automatic checkpoints take over. */
  onLost(): void;
  /**
   * Empties the WAL file with a TRUNCATE checkpoint on the serving connection itself, without
   * waiting for another process's reader; whether it did. Run once writes paused and every frame
   * was copied back, so it is a truncation, not a copy.
   */
  truncate(): boolean;
}

export class WalCheckpointer {
  private readonly worker: Worker;
  private stopping = false;
  private exited = false;

  private readonly truncatedListeners = new Set<() => void>();

  constructor(path: string, connection: CheckpointedConnection, intervalMs = CHECKPOINT_INTERVAL_MS) {
    this.worker = new Worker(new URL('./checkpoint-worker.js', import.meta.url), {
      workerData: { path, intervalMs, journalSizeLimit: JOURNAL_SIZE_LIMIT_BYTES },
    });
    this.worker.on('message', (message: unknown) => {
      if (message !== 'quiet' || this.stopping || !connection.truncate()) return;
      for (const listener of this.truncatedListeners) listener();
    });
    this.worker.unref();
    this.worker.on('error', () => undefined);
    this.worker.on('exit', () => {
      this.exited = true;
      if (!this.stopping) connection.onLost();
    });
  }

  /** Runs `listener` each time writes paused and the WAL was truncated to zero bytes. */
  onTruncated(listener: () => void): () => void {
    this.truncatedListeners.add(listener);
    return () => this.truncatedListeners.delete(listener);
  }

  async stop(): Promise<void> {
    if (this.stopping || this.exited) return;
    this.stopping = true;
    // Held while it stops: an unreferenced worker would let the process end before it answers.
    this.worker.ref();
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage('stop');
    await exited;
  }
}
