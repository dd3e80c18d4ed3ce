/**
 * Reads a V8 `.cpuprofile` (written by `node --cpu-prof`) into the functions that took the most
 * busy time: self samples per function, as a share of the samples that were not idle.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  /** µs between consecutive samples (the first from the profile's start). */
  timeDeltas?: number[];
}

/** The indexes of the samples taken in the last `lastMs` of the profile (all of them without a window). */
function sampleWindow(profile: CpuProfile, lastMs: number | undefined): { from: number } {
  const deltas = profile.timeDeltas;
  if (lastMs === undefined || !deltas || deltas.length !== profile.samples.length) return { from: 0 };
  const total = deltas.reduce((sum, d) => sum + d, 0);
  let at = 0;
  for (let i = 0; i < deltas.length; i++) {
    at += deltas[i]!;
    if (at >= total - lastMs * 1000) return { from: i };
  }
  return { from: 0 };
}

export interface FunctionShare {
  /** `name (file:line)`; anonymous functions by their place. */
  name: string;
  /** Share of the busy samples spent in the function itself, 0-1. */
  share: number;
}

/** Samples V8 takes while the thread waits for I/O: not busy time. */
const IDLE = '(idle)';

function label(frame: ProfileNode['callFrame']): string {
  const file = frame.url === '' ? '' : ` ${basename(frame.url)}:${frame.lineNumber + 1}`;
  return `${frame.functionName === '' ? '(anonymous)' : frame.functionName}${file}`;
}

/**
 * The `top` functions by self time, and how many samples were busy; with `lastMs`, only the samples
 * of the profile's last `lastMs` (the measured load, not the start-up before it).
 */
export function topFunctions(
  path: string,
  top: number,
  lastMs?: number,
): { busySamples: number; functions: FunctionShare[] } {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const labels = new Map(profile.nodes.map((node) => [node.id, label(node.callFrame)]));
  const counts = new Map<string, number>();
  let busy = 0;
  const { from } = sampleWindow(profile, lastMs);
  for (const id of profile.samples.slice(from)) {
    const name = labels.get(id) ?? '(unknown)';
    if (name === IDLE) continue;
    busy++;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const functions = [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, count]) => ({ name, share: busy === 0 ? 0 : count / busy }));
  return { busySamples: busy, functions };
}

/**
 * The inclusive shares (the function or anything it called) of functions whose label contains one
 * of `names`: how a named cost (e.g. `randomBytes`) moves between two profiles, wherever the
 * native work under it is attributed.
 */
export function sharesOf(path: string, names: readonly string[]): Map<string, number> {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const labels = new Map(profile.nodes.map((node) => [node.id, label(node.callFrame)]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const counts = new Map<string, number>(names.map((name) => [name, 0]));
  let busy = 0;
  for (const id of profile.samples) {
    if (labels.get(id) === IDLE) continue;
    busy++;
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      const name = labels.get(at) ?? '';
      for (const wanted of names) if (name.includes(wanted)) onStack.add(wanted);
    }
    for (const wanted of onStack) counts.set(wanted, counts.get(wanted)! + 1);
  }
  return new Map([...counts].map(([name, count]) => [name, busy === 0 ? 0 : count / busy]));
}
