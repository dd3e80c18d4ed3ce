/** Bounds of the fault table (`/admin/faults`). */

/** Faults held at once, every app together: a full table refuses new ones until some expire or are removed. */
export const MAX_FAULTS = 1_000;
/** Faults one application may have at once. */
export const MAX_FAULTS_PER_APP = 100;
/** The longest added latency or late delivery (ms): a fault must not hold a connection for long. */
export const MAX_FAULT_LATENCY_MS = 30_000;
/** The longest `retry_after` of an injected 429 (seconds). */
export const MAX_FAULT_RETRY_AFTER_S = 3_600;
/** The most strikes one fault may have. */
export const MAX_FAULT_COUNT = 1_000_000;
/** How far ahead `until` may be (ms): a forgotten fault expires within a day. */
export const MAX_FAULT_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Statuses a `server_error` fault may answer with. */
export const FAULT_SERVER_STATUSES = [500, 502, 503, 504] as const;
/** The longest route or event name a fault may target (characters). */
export const MAX_FAULT_TARGET_LENGTH = 200;
