/**
 * The fault table of one node: the faults `/admin/faults` added, and what each has done. Held in
 * memory and consulted synchronously, so the gateway decides on a dispatch without waiting and
 * the order of dispatches never changes (docs/decisions.md#fault-injection). Bounded: a full
 * table (or a full app) refuses new faults; spent and expired faults are swept on every change.
 */
import { apiError } from '../core/io/errors.js';
import { decideFault, isLive } from '../core/faults/decide.js';
import type { Fault, FaultChance, FaultEntry, FaultSpec, FaultState } from '../core/faults/fault.js';
import { MAX_FAULTS, MAX_FAULTS_PER_APP } from '../core/faults/limits.js';

/** Told of every strike (the interaction's transcript records it). */
export type StrikeListener = (fault: Fault, chance: FaultChance) => void;

export class FaultTable {
  private readonly entries = new Map<string, FaultEntry>();
  private readonly listeners = new Set<StrikeListener>();

  constructor(private readonly now: () => number) {}

  /** Adds a fault under `id`; refused (FaultTableFull) when the table or the app has no room. */
  add(id: string, spec: FaultSpec): FaultEntry {
    this.sweep();
    const own = [...this.entries.values()].filter((entry) => entry.fault.application_id === spec.application_id);
    if (this.entries.size >= MAX_FAULTS || own.length >= MAX_FAULTS_PER_APP) throw apiError('FaultTableFull');
    const entry: FaultEntry = { fault: { id, ...spec }, state: { draws: 0, fired: 0 } };
    this.entries.set(id, entry);
    return entry;
  }

  /** The live faults, every app's or one app's, in the order they were added. */
  list(applicationId?: string): FaultEntry[] {
    this.sweep();
    const all = [...this.entries.values()];
    return applicationId === undefined ? all : all.filter((entry) => entry.fault.application_id === applicationId);
  }

  get(id: string): FaultEntry | null {
    this.sweep();
    return this.entries.get(id) ?? null;
  }

  remove(id: string): boolean {
    return this.entries.delete(id);
  }

  /** Removes every fault of the app (or every fault); returns how many. */
  clear(applicationId?: string): number {
    let removed = 0;
    for (const [id, entry] of this.entries) {
      if (applicationId !== undefined && entry.fault.application_id !== applicationId) continue;
      this.entries.delete(id);
      removed++;
    }
    return removed;
  }

  /** Whether the table holds anything at all: the hooks skip their work when it does not. */
  get isEmpty(): boolean {
    return this.entries.size === 0;
  }

  /** The fault that strikes this chance (its draw and strike counted), or null. */
  strike(chance: FaultChance): Fault | null {
    if (this.entries.size === 0) return null;
    const decision = decideFault(this.entries.values(), chance, this.now());
    for (const [id, state] of decision.states) this.setState(id, state);
    if (decision.struck) for (const listener of this.listeners) listener(decision.struck, chance);
    return decision.struck;
  }

  onStrike(listener: StrikeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private setState(id: string, state: FaultState): void {
    const entry = this.entries.get(id);
    if (entry) this.entries.set(id, { fault: entry.fault, state });
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, entry] of this.entries) if (!isLive(entry, now)) this.entries.delete(id);
  }
}
