/** Rate-limit presets: the published v10 numbers, a generous sandbox with the same shape, or none. */
import type { BucketGroup } from './buckets.js';
import {
  GLOBAL_WINDOW_MS,
  SANDBOX_FACTOR,
  SANDBOX_GLOBAL_LIMIT,
  V10_COMMAND_BULK,
  V10_COMMAND_WRITES,
  V10_GLOBAL_LIMIT,
  V10_INTERACTION_CALLBACK,
  V10_PERMISSION_WRITES,
  V10_READS,
  V10_WEBHOOK,
} from './limits.js';

/** At most `limit` requests in a window of `windowMs` that starts at its first request. */
export interface WindowLimit {
  readonly limit: number;
  readonly windowMs: number;
}

export interface RateLimitPreset {
  readonly name: string;
  /** Per caller (a bot, a Bearer token, a user, or an address), across routes. */
  readonly global: WindowLimit;
  readonly groups: Readonly<Record<BucketGroup, WindowLimit>>;
}

export const PRESET_NAMES = ['sandbox', 'v10', 'off'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

export const V10_PRESET: RateLimitPreset = {
  name: 'v10',
  global: { limit: V10_GLOBAL_LIMIT, windowMs: GLOBAL_WINDOW_MS },
  groups: {
    commandWrites: V10_COMMAND_WRITES,
    commandBulk: V10_COMMAND_BULK,
    reads: V10_READS,
    permissionWrites: V10_PERMISSION_WRITES,
    interactionCallback: V10_INTERACTION_CALLBACK,
    webhook: V10_WEBHOOK,
    other: V10_READS,
  },
};

function scaled(preset: RateLimitPreset, factor: number): RateLimitPreset['groups'] {
  const groups = {} as Record<BucketGroup, WindowLimit>;
  for (const [group, { limit, windowMs }] of Object.entries(preset.groups)) {
    groups[group as BucketGroup] = { limit: limit * factor, windowMs };
  }
  return groups;
}

export const SANDBOX_PRESET: RateLimitPreset = {
  name: 'sandbox',
  global: { limit: SANDBOX_GLOBAL_LIMIT, windowMs: GLOBAL_WINDOW_MS },
  groups: scaled(V10_PRESET, SANDBOX_FACTOR),
};

/** The preset of a name; `off` has none. */
export function presetNamed(name: PresetName): RateLimitPreset | null {
  if (name === 'off') return null;
  return name === 'v10' ? V10_PRESET : SANDBOX_PRESET;
}

export function isPresetName(value: string): value is PresetName {
  return (PRESET_NAMES as readonly string[]).includes(value);
}
