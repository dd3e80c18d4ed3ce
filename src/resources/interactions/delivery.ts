/**
 * Delivering a recorded interaction to its app: signed over HTTP to the app's endpoint, or on the
 * event bus for its gateway session. Unanswered, it fails after 3 seconds; each attempt, fault
 * and failure is a step of its transcript and one log line.
 */
import { DependencyUnavailableError } from '../../core/dependencies.js';
import type { DeliveryLog } from '../../delivery/http-delivery.js';
import type { APIAttachment } from 'discord-api-types/v10';
import { setTimeout as delay } from 'node:timers/promises';
import { INITIAL_RESPONSE_DEADLINE_MS, type FailureReason, type InteractionRecord } from './rules/lifecycle.js';
import type { Fault, FaultChance } from '../../core/faults/fault.js';
import type { GatewayPresence } from '../../core/gateway/presence.js';
import type { HttpDelivery } from '../../delivery/http-delivery.js';
import type { EventBus } from '../../events/bus.js';
import type { DeliveryMetrics, InteractionMetrics } from '../../metrics/metrics.js';
import type { Store, StoredApplication } from '../../store/store.js';
import { appendStep } from './transcript.js';
import type { CallbacksService } from './callbacks-service.js';

/** The fault table as delivery consults it (src/faults/fault-table.ts). */
export interface DeliveryFaults {
  strike(chance: FaultChance): Fault | null;
}

/**
 * Why an app without an interactions endpoint failed: no gateway session of it, in words that say
 * what to do next (a newcomer's bot is usually just not running, or runs with another token).
 */
export const NO_BOT_CONNECTED_DETAIL =
  "no bot is logged in with this app's token, and the app has no interactions endpoint: start your bot (it gets interactions over the gateway), or set an interactions endpoint";

/** Why an HTTP delivery failed to connect: while an endpoint is set, interactions never go to the gateway. */
export function unreachableEndpointDetail(cause: string): string {
  return `the app's interactions endpoint could not be reached (${cause}); while an endpoint is set, interactions go there and not to a bot on the gateway`;
}

/** Why an interaction failed when no answer came within its deadline. */
export const NO_ANSWER_DETAIL = 'the app did not answer within 3 seconds';

/** Why an interaction failed when a `client_gave_up` fault struck it. */
export const CLIENT_GAVE_UP_DETAIL = "injected fault: the user's client gave up (its 3 s deadline passed)";

/** Where failed deliveries are logged (the server's pino logger fits). */

/**
 * The HTTP request an invocation came in: its id goes to the app as `X-Request-Id`, and its
 * logger (which stamps that id on every line) writes the delivery's lines.
 */
export interface RequestContext {
  requestId: string;
  log: DeliveryLog;
  /** Files the user attached (ATTACHMENT options): `data.resolved.attachments` by id. */
  attachments?: Record<string, APIAttachment>;
}

export interface InteractionDeliveryDeps {
  store: Pick<Store, 'interactions'>;
  bus: EventBus;
  http: HttpDelivery;
  /** Takes the answer an endpoint gives in the body of its HTTP response. */
  callbacks: Pick<CallbacksService, 'acceptInlineResponse'>;
  now: () => number;
  /** Chooses the gateway session an INTERACTION_CREATE goes to (on any node). */
  presence: GatewayPresence;
  /** Whether an app without an endpoint and without a session fails at once (else it waits for its deadline). */
  failWithoutSession: boolean;
  metrics: DeliveryMetrics & InteractionMetrics;
  /** Injected faults (`/admin/faults`): deliveries dropped, duplicated or late; the client giving up. */
  faults: DeliveryFaults;
  /** Where a delivery outside an HTTP request logs (the node's logger); null when logging is off. */
  log: DeliveryLog | null;
}

export class InteractionDelivery {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly deps: InteractionDeliveryDeps) {}

  /** A delivery within an HTTP request logs to the request's logger (it stamps the request id). */
  private logOf(context: RequestContext | undefined): DeliveryLog | null {
    return context?.log ?? this.deps.log;
  }

  /**
   * Refuses (a v10 503) before anything is stored when the interaction could not reach the app
   * now: a gateway app while the sessions cannot be looked up (Redis away).
   */
  ensureDeliverable(app: StoredApplication): void {
    if (!app.interactions_endpoint_url && !this.deps.presence.reachable()) {
      throw new DependencyUnavailableError('redis', 'the gateway sessions are not reachable');
    }
  }

  /** Over HTTP to the app's endpoint, or on the bus for its gateway session; fails after 3 seconds unanswered. */
  async deliver(app: StoredApplication, record: InteractionRecord, context?: RequestContext): Promise<void> {
    this.scheduleTimeout(record);
    await this.clientMayGiveUp(record);
    const fault = this.deps.faults.strike({ applicationId: app.id, family: 'delivery' });
    if (fault) await this.step(record, 'fault', { fault_id: fault.id, kind: fault.kind });
    if (fault?.kind === 'drop') {
      this.logOf(context)?.info(
        { applicationId: record.application_id, interactionId: record.id, faultId: fault.id },
        'interaction delivery dropped (injected fault)',
      );
      return;
    }
    if (fault?.kind === 'late') await delay(fault.latency_ms);
    const copies = fault?.kind === 'duplicate' ? 2 : 1;
    const url = app.interactions_endpoint_url;
    if (!url) await this.overGateway(app, record, copies, context);
    else await this.overHttp(app, url, record, copies, context);
  }

  private async overGateway(
    app: StoredApplication,
    record: InteractionRecord,
    copies: number,
    context: RequestContext | undefined,
  ): Promise<void> {
    let sessionId: string | null;
    try {
      sessionId = await this.deps.presence.sessionFor(app.id, record.guild_id);
      // Kept until its session's buffer has it: re-sent if that session dies with its node first.
      const deadline = record.created_at + INITIAL_RESPONSE_DEADLINE_MS;
      if (sessionId !== null) await this.deps.presence.handOver(app.id, sessionId, { data: record.payload, deadline });
    } catch (error) {
      // Redis went away after the interaction was stored: failed for that cause, not the app's.
      if (!(error instanceof DependencyUnavailableError)) throw error;
      await this.step(record, 'delivery', { transport: 'gateway', outcome: 'dependency_unavailable' });
      await this.recordDeliveryFailure(record, 'dependency_unavailable', error.message, context);
      throw error;
    }
    if (sessionId === null && this.deps.failWithoutSession) {
      this.deps.metrics.delivery('gateway', 'no_session');
      await this.step(record, 'delivery', { transport: 'gateway', outcome: 'no_session' });
      await this.recordDeliveryFailure(record, 'delivery_failure', NO_BOT_CONNECTED_DETAIL, context);
      return;
    }
    for (let copy = 0; copy < copies; copy++) {
      this.deps.bus.publish('INTERACTION_CREATE', {
        applicationId: app.id,
        data: record.payload,
        ...(sessionId === null ? {} : { sessionId }),
        ...(copy > 0 ? { copy } : {}),
      });
    }
    this.deps.metrics.delivery('gateway', 'ok');
    await this.step(record, 'delivery', { transport: 'gateway', outcome: 'published', copies });
  }

  private async overHttp(
    app: StoredApplication,
    url: string,
    record: InteractionRecord,
    copies: number,
    context: RequestContext | undefined,
  ): Promise<void> {
    const started = this.deps.now();
    const remaining = record.created_at + INITIAL_RESPONSE_DEADLINE_MS - started;
    const deliver = () => this.deps.http.deliver(app, url, record.payload, Math.max(1, remaining), context?.requestId);
    // A duplicated delivery: the same interaction twice at once; the first answer counts, as
    // the app's callback for the second is refused (40060) like any second acknowledgement.
    const [outcome] = await Promise.all([deliver(), ...(copies > 1 ? [deliver()] : [])]);
    // Past the deadline (the endpoint did not answer in time, and the request was aborted) it is
    // a timeout, whichever of the abort and the deadline timer came first.
    const late = outcome.kind === 'failed' && this.deps.now() >= record.created_at + INITIAL_RESPONSE_DEADLINE_MS;
    const result = outcome.kind !== 'failed' ? 'ok' : late ? 'timeout' : outcome.cause;
    this.deps.metrics.delivery('http', result);
    // One line per delivery; the endpoint's URL is not in it (an app may keep a secret in its URL).
    const delivered = { outcome: result, durationMs: this.deps.now() - started };
    const step = {
      at: this.deps.now(),
      kind: 'delivery',
      detail: {
        transport: 'http',
        started_at: new Date(started).toISOString(),
        duration_ms: delivered.durationMs,
        outcome: result,
        answer: outcome.kind,
        ...(outcome.kind === 'failed' ? { reason: outcome.reason } : {}),
        copies,
      },
    };
    if (outcome.kind === 'inline') {
      this.logOf(context)?.info(
        { applicationId: record.application_id, interactionId: record.id, answer: outcome.kind, ...delivered },
        'interaction delivered',
      );
      // The delivery's step is written in the answer's transaction: one durable write for both.
      await this.deps.callbacks.acceptInlineResponse(app, record, outcome.response, [step]);
      return;
    }
    await this.deps.store.interactions.appendTranscript(record.application_id, record.id, step);
    if (outcome.kind === 'failed') {
      const reason = late ? 'timeout' : 'delivery_failure';
      const detail =
        !late && outcome.cause === 'connect_error' ? unreachableEndpointDetail(outcome.reason) : outcome.reason;
      await this.recordDeliveryFailure(record, reason, detail, context, delivered);
      return;
    }
    this.logOf(context)?.info(
      { applicationId: record.application_id, interactionId: record.id, answer: outcome.kind, ...delivered },
      'interaction delivered',
    );
  }

  /**
   * A `client_gave_up` fault: the user's client stopped waiting, so the interaction is failed as
   * past its 3 s deadline before it is delivered; the app still gets it, and its answer is refused
   * (10062 Unknown interaction) as it would be after the deadline.
   */
  private async clientMayGiveUp(record: InteractionRecord): Promise<void> {
    const fault = this.deps.faults.strike({ applicationId: record.application_id, family: 'interaction' });
    if (!fault) return;
    const failed = await this.deps.store.interactions.updateInteraction(record.application_id, record.id, ['pending'], {
      state: 'failed',
      failure_reason: 'timeout',
      failure_detail: CLIENT_GAVE_UP_DETAIL,
    });
    if (failed) this.deps.metrics.interaction('failed', 'timeout');
    await this.step(record, 'fault', { fault_id: fault.id, kind: fault.kind });
  }

  /** A step of the interaction's transcript (GET /admin/interactions/{id}/transcript). */
  private async step(record: InteractionRecord, kind: string, detail: Record<string, unknown>): Promise<void> {
    await appendStep(this.deps, record, kind, detail);
  }

  /** The stable code stays in failure_reason; the cause goes to failure_detail and one log line. */
  private async recordDeliveryFailure(
    record: InteractionRecord,
    reason: FailureReason,
    detail: string,
    context?: RequestContext,
    delivered: Record<string, unknown> = {},
  ): Promise<void> {
    const failed = await this.deps.store.interactions.updateInteraction(record.application_id, record.id, ['pending'], {
      state: 'failed',
      failure_reason: reason,
      failure_detail: detail,
    });
    if (failed) this.deps.metrics.interaction('failed', reason);
    // Logged even when the deadline timer failed it first: the cause is only known here.
    this.logOf(context)?.info(
      { applicationId: record.application_id, interactionId: record.id, reason, detail, ...delivered },
      'interaction delivery failed',
    );
  }

  private scheduleTimeout(record: InteractionRecord): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      // The injected clock decides, not the timer: until it says the deadline has passed, the
      // interaction is still pending (and `currentState` fails it lazily once it has).
      if (this.deps.now() < record.created_at + INITIAL_RESPONSE_DEADLINE_MS) return;
      void this.failUnanswered(record).catch(() => undefined);
    }, INITIAL_RESPONSE_DEADLINE_MS);
    timer.unref();
    this.timers.add(timer);
  }

  /**
   * Fails the interaction past its deadline unless it was answered: the state is looked up first
   * (on SQLite from the statuses this node wrote), so an answered one costs no transaction.
   */
  private async failUnanswered(record: InteractionRecord): Promise<void> {
    const interactions = this.deps.store.interactions;
    if ((await interactions.getInteractionState(record.application_id, record.id)) !== 'pending') return;
    const failed = await interactions.updateInteraction(record.application_id, record.id, ['pending'], {
      state: 'failed',
      failure_reason: 'timeout',
      failure_detail: NO_ANSWER_DETAIL,
    });
    if (failed) this.deps.metrics.interaction('failed', 'timeout');
  }

  /** Clears the deadline timers (the node is closing). */
  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
