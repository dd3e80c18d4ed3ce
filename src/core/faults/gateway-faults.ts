/** What a gateway fault sends, decided without the socket: the op, then the close and whether the session survives. */
import { Close, Op } from '../gateway/protocol.js';
import type { Fault } from './fault.js';

/** Close codes after which a v10 client may not resume (it must IDENTIFY anew, or stop). */
const NOT_RESUMABLE_CLOSES: ReadonlySet<number> = new Set([4004, 4007, 4009, 4010, 4011, 4012, 4013, 4014]);

export interface GatewayFaultPlan {
  /** A payload sent first (op 7 or op 9), or null. */
  readonly payload: { op: number; d: unknown; s: null; t: null } | null;
  readonly close: { code: number; reason: string };
  /** Whether the session stays resumable after the close. */
  readonly resumable: boolean;
}

export function planGatewayFault(fault: Fault): GatewayFaultPlan {
  if (fault.kind === 'reconnect') {
    return {
      payload: { op: Op.Reconnect, d: null, s: null, t: null },
      close: { code: Close.UnknownError.code, reason: 'Reconnect.' },
      resumable: true,
    };
  }
  if (fault.kind === 'invalid_session') {
    return {
      payload: { op: Op.InvalidSession, d: fault.resumable, s: null, t: null },
      close: { code: Close.UnknownError.code, reason: 'Invalid session.' },
      resumable: fault.resumable,
    };
  }
  return {
    payload: null,
    close: { code: fault.close_code, reason: 'Injected fault.' },
    resumable: !NOT_RESUMABLE_CLOSES.has(fault.close_code),
  };
}
