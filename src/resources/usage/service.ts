/**
 * What each app's bot did on this node, for `slashd test`'s coverage and its `event` expectations
 * (GET /admin/applications/{id}/usage): the v10 routes it called with its bot token (by template,
 * never by path), those slashd does not serve, and the gateway events its sessions were sent, the
 * latest with their data. In memory and bounded; cleared by DELETE on the same route.
 */
import type { AppUsage, EventUse, RouteUse } from '../../core/scenarios/coverage.js';

/** Apps tracked at most; past it the app seen least recently is forgotten. */
export const USAGE_APPS_MAX = 1_024;
/** Distinct routes (served and unserved together) counted per app; later new ones are not. */
export const USAGE_ROUTES_MAX = 512;
/** Distinct gateway event types counted per app. */
export const USAGE_EVENT_TYPES_MAX = 128;
/** The latest dispatches kept with their data per app, for `event` expectations. */
export const USAGE_RECENT_EVENTS = 256;
/** A dispatch's data is kept only when its JSON text is at most this long (a big GUILD_CREATE is not). */
export const USAGE_EVENT_DATA_CHARS_MAX = 64 * 1024;

/** One dispatch sent to a session of the app: its number in this recorder, type and JSON data (null when too big). */
export interface RecordedEvent {
  seq: number;
  type: string;
  data: string | null;
}

class Counts {
  readonly map = new Map<string, number>();

  constructor(private readonly max: number) {}

  add(key: string): void {
    const count = this.map.get(key);
    if (count !== undefined) this.map.set(key, count + 1);
    else if (this.map.size < this.max) this.map.set(key, 1);
  }
}

class AppRecord {
  readonly routes = new Counts(USAGE_ROUTES_MAX);
  readonly unserved = new Counts(USAGE_ROUTES_MAX);
  readonly events = new Counts(USAGE_EVENT_TYPES_MAX);
  readonly recent: RecordedEvent[] = [];
}

function routeUses(counts: Counts): RouteUse[] {
  return [...counts.map].map(([key, count]) => {
    const space = key.indexOf(' ');
    return { method: key.slice(0, space), route: key.slice(space + 1), count };
  });
}

export class AppUsageRecorder {
  private readonly apps = new Map<string, AppRecord>();
  private seq = 0;

  private record(applicationId: string): AppRecord {
    let record = this.apps.get(applicationId);
    if (record) {
      // Most recently seen last: the first is the one to forget.
      this.apps.delete(applicationId);
    } else {
      record = new AppRecord();
      if (this.apps.size >= USAGE_APPS_MAX) this.apps.delete(this.apps.keys().next().value!);
    }
    this.apps.set(applicationId, record);
    return record;
  }

  /** A request of the app's bot: `route` is `METHOD /template`; `served` false for a route slashd does not serve. */
  request(applicationId: string, route: string, served: boolean): void {
    const record = this.record(applicationId);
    (served ? record.routes : record.unserved).add(route);
  }

  /** A dispatch sent to one of the app's sessions. */
  dispatched(applicationId: string, type: string, json: string): void {
    const record = this.record(applicationId);
    record.events.add(type);
    record.recent.push({ seq: ++this.seq, type, data: json.length <= USAGE_EVENT_DATA_CHARS_MAX ? json : null });
    if (record.recent.length > USAGE_RECENT_EVENTS) record.recent.shift();
  }

  usage(applicationId: string): AppUsage & { recent_events: RecordedEvent[]; last_event_seq: number } {
    const record = this.apps.get(applicationId);
    const events: EventUse[] = [...(record?.events.map ?? [])].map(([type, count]) => ({ type, count }));
    return {
      routes: record ? routeUses(record.routes) : [],
      unserved: record ? routeUses(record.unserved) : [],
      events,
      recent_events: record?.recent ?? [],
      last_event_seq: this.seq,
    };
  }

  clear(applicationId: string): void {
    this.apps.delete(applicationId);
  }
}
