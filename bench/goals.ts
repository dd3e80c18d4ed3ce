/** A figure beside its goal, judged: how every line of the growth bench ends. */
import { fixed } from './stats.js';

export interface Goal {
  /** `atMost`: the figure must not exceed the bound; `atLeast`: it must reach it. */
  kind: 'atMost' | 'atLeast';
  bound: number;
}

export const atMost = (bound: number): Goal => ({ kind: 'atMost', bound });
export const atLeast = (bound: number): Goal => ({ kind: 'atLeast', bound });

/** "0.42 (goal ≥ 0.5: MISSED)". */
export function judged(value: number, goal: Goal, digits = 2): string {
  const met = goal.kind === 'atMost' ? value <= goal.bound : value >= goal.bound;
  return `${fixed(value, digits)} (goal ${goal.kind === 'atMost' ? '≤' : '≥'} ${goal.bound}: ${met ? 'met' : 'MISSED'})`;
}
