/**
 * An injected fault (`/admin/faults`): what goes wrong, for which application, where, how often
 * and until when. Faults are test tooling: they never reach an application other than their own.
 */

/** Faults on the app's own REST requests (`route`: a bucket, or every API route). */
export const HTTP_KINDS = ['latency', 'rate_limit', 'server_error'] as const;
/** Faults on deliveries of interactions to the app's interactions endpoint. */
export const DELIVERY_KINDS = ['drop', 'duplicate', 'late'] as const;
/** Faults on the app's gateway sessions (`event`: on the next such dispatch, or at once). */
export const GATEWAY_KINDS = ['reconnect', 'invalid_session', 'close'] as const;
/** Faults on the interaction itself: the user's client stopped waiting (its 3 s deadline passed). */
export const INTERACTION_KINDS = ['client_gave_up'] as const;

export const FAULT_KINDS = [...HTTP_KINDS, ...DELIVERY_KINDS, ...GATEWAY_KINDS, ...INTERACTION_KINDS] as const;

export type HttpFaultKind = (typeof HTTP_KINDS)[number];
export type DeliveryFaultKind = (typeof DELIVERY_KINDS)[number];
export type GatewayFaultKind = (typeof GATEWAY_KINDS)[number];
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Where a fault may strike: each kind belongs to one. */
export type FaultFamily = 'http' | 'delivery' | 'gateway' | 'interaction';

export function familyOf(kind: FaultKind): FaultFamily {
  if ((HTTP_KINDS as readonly string[]).includes(kind)) return 'http';
  if ((DELIVERY_KINDS as readonly string[]).includes(kind)) return 'delivery';
  if ((GATEWAY_KINDS as readonly string[]).includes(kind)) return 'gateway';
  return 'interaction';
}

/** A fault as the admin API takes it (before it has an id). */
export interface FaultSpec {
  readonly application_id: string;
  readonly kind: FaultKind;
  /**
   * HTTP kinds: the bucket, as its route (`PUT /applications/:applicationId/commands`) or its
   * `X-RateLimit-Bucket` hash; null for every API route of the app.
   */
  readonly route: string | null;
  /** Gateway kinds: the dispatch (`INTERACTION_CREATE`) whose next sending it replaces; null: at once. */
  readonly event: string | null;
  /** `latency`, `late`: how long the request or delivery is held up (ms). */
  readonly latency_ms: number;
  /** `rate_limit`: the 429's `retry_after` (seconds). */
  readonly retry_after: number;
  /** `rate_limit`: whether the 429 is the global limit's (else the bucket's). */
  readonly global: boolean;
  /** `server_error`: the status answered. */
  readonly status: number;
  /** `close`: the WebSocket close code. */
  readonly close_code: number;
  /** `invalid_session`: op 9's `d` (whether the session may be resumed). */
  readonly resumable: boolean;
  /** How many times it strikes before it is spent; null: until `until`. */
  readonly count: number | null;
  /** When it expires (epoch ms); null: after `count` strikes. */
  readonly until: number | null;
  /** Seed of its draws: the same seed and the same requests strike the same ones. */
  readonly seed: number;
  /** Chance (0..1) that one matching request, delivery or dispatch is struck. */
  readonly probability: number;
}

export interface Fault extends FaultSpec {
  readonly id: string;
}

/** What a fault has done so far: its draws (one per matching chance) and its strikes. */
export interface FaultState {
  readonly draws: number;
  readonly fired: number;
}

/** A fault in the table, as `GET /admin/faults` shows it. */
export interface FaultEntry {
  readonly fault: Fault;
  readonly state: FaultState;
}

/** A chance for a fault to strike: one request, delivery, dispatch or interaction of an app. */
export interface FaultChance {
  readonly applicationId: string;
  readonly family: FaultFamily;
  /** HTTP: the route's bucket name and hash. */
  readonly bucket?: { readonly name: string; readonly hash: string } | undefined;
  /** Gateway: the dispatch about to be sent. */
  readonly event?: string | undefined;
}

/** The wire shape of a fault (GET/POST /admin/faults): `until` as ISO 8601, the state alongside. */
export function faultJson(entry: FaultEntry): Record<string, unknown> {
  const { fault, state } = entry;
  return {
    ...fault,
    until: fault.until === null ? null : new Date(fault.until).toISOString(),
    fired: state.fired,
    draws: state.draws,
    remaining: fault.count === null ? null : Math.max(0, fault.count - state.fired),
  };
}
