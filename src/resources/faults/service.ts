/**
 * Injected faults (`/admin/faults`): adds them to the node's table (read from the admin body by
 * the core), strikes gateway faults without an event at once, lists and removes them.
 */
import { orThrow } from '../../core/io/result.js';
import { familyOf, faultJson } from '../../core/faults/fault.js';
import { parseFault } from '../../core/faults/parse.js';
import type { SnowflakeGenerator } from '../../core/snowflake.js';
import type { FaultTable } from '../../faults/fault-table.js';

/** The gateway's part: strike the app's sessions now. */
export interface FaultGateway {
  strikeNow(applicationId: string): number;
}

export interface FaultsServiceDeps {
  table: FaultTable;
  ids: SnowflakeGenerator;
  now: () => number;
  gateway: FaultGateway;
}

export class FaultsService {
  constructor(private readonly deps: FaultsServiceDeps) {}

  add(body: unknown): Record<string, unknown> {
    const spec = orThrow(parseFault(body, this.deps.now()));
    const entry = this.deps.table.add(this.deps.ids.next(), spec);
    if (familyOf(spec.kind) === 'gateway' && spec.event === null) this.deps.gateway.strikeNow(spec.application_id);
    return faultJson(this.deps.table.get(entry.fault.id) ?? entry);
  }

  list(applicationId?: string): Record<string, unknown>[] {
    return this.deps.table.list(applicationId).map(faultJson);
  }

  get(id: string): Record<string, unknown> | null {
    const entry = this.deps.table.get(id);
    return entry && faultJson(entry);
  }

  remove(id: string): boolean {
    return this.deps.table.remove(id);
  }

  clear(applicationId?: string): number {
    return this.deps.table.clear(applicationId);
  }
}
