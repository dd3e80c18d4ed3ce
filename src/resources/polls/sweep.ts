/**
 * The sweep that ends polls at their expiry (docs/v10-behaviour.md#polls): every
 * POLL_SWEEP_INTERVAL_MS the node ends the polls its clock says are due. The clock decides, not
 * the timer (a test's injected clock ends a poll at the next sweep, or at once when a vote or an
 * expire finds it due); every node sweeps, and the store's claim lets one of them end each poll.
 */
import type { PollsService } from './service.js';

/** How often a node looks for polls past their end, in ms. */
export const POLL_SWEEP_INTERVAL_MS = 5_000;

export class PollSweep {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();

  constructor(private readonly polls: Pick<PollsService, 'endDuePolls'>) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      // A sweep that fails (the database away) is tried again at the next one.
      this.running = this.running.then(() => this.polls.endDuePolls()).catch(() => undefined);
    }, POLL_SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  /** Stops the timer and waits for a sweep under way (the node is closing). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
