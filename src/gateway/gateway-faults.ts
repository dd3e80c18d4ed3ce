/** Injected gateway faults (`/admin/faults`): RECONNECT, INVALID_SESSION or a close instead of a dispatch. */
import type { Fault } from '../core/faults/fault.js';
import { planGatewayFault } from '../core/faults/gateway-faults.js';
import type { FaultTable } from '../faults/fault-table.js';
import { Connection } from './connection.js';
import type { SessionTable } from './session-table.js';

export class GatewayFaults {
  constructor(
    private readonly faults: FaultTable | null,
    private readonly sessions: SessionTable,
  ) {}

  /** Whether a fault struck instead of this dispatch (it stays numbered in the resume buffer, unsent). */
  strikesDispatch(connection: Connection, t: string): boolean {
    const session = connection.session;
    if (!this.faults || this.faults.isEmpty || !session) return false;
    const fault = this.faults.strike({ applicationId: session.applicationId, family: 'gateway', event: t });
    if (!fault) return false;
    injectGatewayFault(connection, fault);
    return true;
  }

  /**
   * Gateway faults without an event strike at once: each attached session of the app on this node
   * is a chance (a fault with `count: 1` strikes one). Returns how many were struck.
   */
  strikeNow(applicationId: string): number {
    if (!this.faults) return 0;
    let struck = 0;
    for (const session of this.sessions.ofApp(applicationId)) {
      const socket = session.socket;
      if (!(socket instanceof Connection)) continue;
      const fault = this.faults.strike({ applicationId, family: 'gateway' });
      if (!fault) continue;
      injectGatewayFault(socket, fault);
      struck++;
    }
    return struck;
  }
}

/** Sends what the fault plans (op 7 or op 9) and closes, the session kept resumable or ended. */
function injectGatewayFault(connection: Connection, fault: Fault): void {
  const plan = planGatewayFault(fault);
  if (plan.payload) connection.send(plan.payload);
  connection.close(plan.close, plan.resumable);
}
