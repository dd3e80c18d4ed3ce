/** The numbers of the rate-limit presets (docs/rate-limits.md; values v10 does not publish: docs/decisions.md). */

/** v10's global limit: requests per bot per window, across every route but interaction callbacks and webhooks. */
export const V10_GLOBAL_LIMIT = 50;
/** The global window: one second. */
export const GLOBAL_WINDOW_MS = 1_000;

/** Creating, editing or deleting one application command (a commonly reported v10 bucket). */
export const V10_COMMAND_WRITES = { limit: 5, windowMs: 20_000 } as const;
/** A bulk overwrite of a scope's commands: the same numbers as single writes. */
export const V10_COMMAND_BULK = { limit: 5, windowMs: 20_000 } as const;
/** Reading commands and command permissions, and every route without a bucket of its own. */
export const V10_READS = { limit: 5, windowMs: 5_000 } as const;
/** Editing command permissions. */
export const V10_PERMISSION_WRITES = { limit: 10, windowMs: 10_000 } as const;
/** An interaction callback, per interaction. */
export const V10_INTERACTION_CALLBACK = { limit: 5, windowMs: 5_000 } as const;
/** Follow-ups and edits through an interaction webhook, per webhook id and token. */
export const V10_WEBHOOK = { limit: 5, windowMs: 2_000 } as const;

/** `sandbox` multiplies every v10 bucket limit by this: headers as v10 shapes them, limits no test run meets. */
export const SANDBOX_FACTOR = 100;
/** `sandbox`'s global limit per bot per second. */
export const SANDBOX_GLOBAL_LIMIT = 10_000;

/** How long Retry-After and retry_after are never below (a window can end in under a millisecond). */
export const MIN_RETRY_AFTER_MS = 1;
