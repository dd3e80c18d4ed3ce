/**
 * Whether a fault strikes, decided from the table alone: each matching live fault draws a number
 * from its seed and its draw count (a counter-based generator, so a fault's state is two
 * integers), and the first whose draw is under its probability strikes. The same seed and the
 * same sequence of requests strike the same ones.
 */
import type { Fault, FaultChance, FaultEntry, FaultState } from './fault.js';
import { familyOf } from './fault.js';

/** A number in [0, 1) from a seed and an index (splitmix32 over both): the index-th draw of the seed. */
export function draw(seed: number, index: number): number {
  let z = (seed ^ Math.imul(index + 1, 0x9e3779b9)) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x21f0aaad) >>> 0;
  z = Math.imul(z ^ (z >>> 15), 0x735a2d97) >>> 0;
  z = (z ^ (z >>> 15)) >>> 0;
  return z / 0x1_0000_0000;
}

/** Whether the fault can still strike at `now`. */
export function isLive(entry: FaultEntry, now: number): boolean {
  const { fault, state } = entry;
  if (fault.until !== null && now >= fault.until) return false;
  return fault.count === null || state.fired < fault.count;
}

/** Whether the fault is about this chance: same app, same family, and its route or event. */
export function matches(fault: Fault, chance: FaultChance): boolean {
  if (fault.application_id !== chance.applicationId) return false;
  if (familyOf(fault.kind) !== chance.family) return false;
  if (chance.family === 'http' && fault.route !== null) {
    return chance.bucket !== undefined && (fault.route === chance.bucket.name || fault.route === chance.bucket.hash);
  }
  // A gateway fault without an event strikes at once (or at the app's next dispatch of any kind);
  // a chance without an event ("at once") is only for those.
  if (chance.family === 'gateway') return fault.event === null || fault.event === chance.event;
  return true;
}

export interface FaultDecision {
  /** The fault that strikes, or null. */
  readonly struck: Fault | null;
  /** The new state of every fault that drew, by id. */
  readonly states: ReadonlyMap<string, FaultState>;
}

/** Which fault strikes this chance (at most one), and the draws it cost. */
export function decideFault(entries: Iterable<FaultEntry>, chance: FaultChance, now: number): FaultDecision {
  const states = new Map<string, FaultState>();
  let struck: Fault | null = null;
  for (const entry of entries) {
    if (!matches(entry.fault, chance) || !isLive(entry, now)) continue;
    const { fault, state } = entry;
    const hits = struck === null && draw(fault.seed, state.draws) < fault.probability;
    if (hits) struck = fault;
    states.set(fault.id, { draws: state.draws + 1, fired: state.fired + (hits ? 1 : 0) });
  }
  return { struck, states };
}
