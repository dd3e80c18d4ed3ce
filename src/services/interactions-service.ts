/**
 * Invoking commands: the client's request is checked (permissions, version, options) before
 * anything reaches the app; then the interaction is recorded and delivered, signed over HTTP to
 * the app's endpoint or on the event bus for the gateway. Unanswered, it fails after 3 seconds.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { CommandType, EntryPointHandler } from '../core/commands/model.js';
import { toWireCommand } from '../core/commands/wire.js';
import { APPLICATION_COMMAND_OUTDATED } from '../core/io/codes.js';
import type { ApiError } from '../core/io/errors.js';
import { apiError, invalidFormBody } from '../core/io/errors.js';
import { issue } from '../core/io/issue.js';
import { buildInteraction, InteractionType } from '../core/interactions/build-interaction.js';
import { checkInvocation } from '../core/interactions/check-invocation.js';
import { invokedName } from '../core/interactions/invoked-name.js';
import { userIdsNamedBy } from '../core/interactions/named-ids.js';
import type { ChannelMessage, StoredMessage } from '../core/interactions/messages.js';
import {
  currentState,
  INITIAL_RESPONSE_DEADLINE_MS,
  makeInteractionToken,
  type FailureReason,
  type InteractionRecord,
} from '../core/interactions/lifecycle.js';
import { dmAuthorization } from '../core/invocation/dm-access.js';
import { readInvokeRequest, type InvokeRequest } from '../core/invocation/request.js';
import { appChannelPermissions, canReadMessages, channelPermissions } from '../core/permissions/channel-permissions.js';
import { formatPermissions } from '../core/permissions/bits.js';
import { evaluateCommandInvocation } from '../core/permissions/invocation.js';
import { isSnowflake, type SnowflakeGenerator } from '../core/snowflake.js';
import type { User } from '../core/world/types.js';
import type { HttpDelivery } from '../delivery/http-delivery.js';
import type { EventBus } from '../events/bus.js';
import type { GatewayPresence } from '../core/gateway/presence.js';
import { NO_METRICS, type DeliveryMetrics, type InteractionMetrics } from '../metrics/metrics.js';
import type { Store, StoredApplication } from '../store/store.js';
import { isRecord, type JsonRecord } from '../core/io/read.js';
import { readComponentRequest, readModalSubmitRequest } from '../core/invocation/component-request.js';
import { ComponentInteractions } from './component-interactions.js';
import { appendStep } from './interaction-transcript.js';
import { MessageRenderer } from './message-renderer.js';
import {
  loadScene,
  mayReadHistory,
  messageReadableIn,
  viewableGuild,
  withNamedMembers,
  type InvocationScene,
} from './invocation-scene.js';
import type { ResponsesService } from './responses-service.js';
import { memberOf } from '../core/world/member-index.js';
import type { Fault, FaultChance } from '../core/faults/fault.js';

/** The fault table as the service consults it (src/faults/fault-table.ts). */
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

export interface InvokeResult {
  id: string;
  nonce: string | null;
  state: string;
}

export interface InteractionsServiceDeps {
  store: Pick<Store, 'world' | 'commands' | 'interactions'>;
  bus: EventBus;
  ids: SnowflakeGenerator;
  delivery: HttpDelivery;
  responses: ResponsesService;
  now: () => number;
  /** Chooses the gateway session an INTERACTION_CREATE goes to (on any node). */
  presence?: GatewayPresence | null;
  metrics?: DeliveryMetrics & InteractionMetrics;
  /** With `presence`: whether an app without an endpoint and without a session fails at once (default true). */
  failWithoutSession?: boolean;
  /** Injected faults (`/admin/faults`): deliveries dropped, duplicated or late; the client giving up. */
  faults?: DeliveryFaults | undefined;
}

/** Where failed deliveries are logged (the server's pino logger fits). */
export interface DeliveryLog {
  info(fields: Record<string, unknown>, message: string): void;
}

/**
 * The HTTP request an invocation came in: its id goes to the app as `X-Request-Id`, and its
 * logger (which stamps that id on every line) writes the delivery's lines.
 */
export interface RequestContext {
  requestId: string;
  log: DeliveryLog;
}

/** Read-repair: the client's copy of the command is stale; the error names the current version. */
function outdatedCommand(scene: InvocationScene): ApiError {
  const stale = issue(
    ['data', 'version'],
    APPLICATION_COMMAND_OUTDATED,
    'This command is outdated, please try again in a few minutes',
  );
  return invalidFormBody([stale], {
    current_version: scene.command.version,
    application_command: toWireCommand(scene.command),
  });
}

function checkAccess(scene: InvocationScene): void {
  if (!scene.inGuild) {
    if (!dmAuthorization(scene.command, scene.userInstalled)) throw apiError('MissingPermissions');
    return;
  }
  const { guild, member, channel, installed, commandPermissions, appPermissions } = scene.inGuild;
  const decision = evaluateCommandInvocation({
    app: scene.app,
    command: scene.command,
    commandPermissions,
    appPermissions,
    guild,
    member,
    user: scene.user,
    channel,
    installed,
  });
  if (!decision.allowed) throw apiError('MissingPermissions');
}

/** The world's messages of the invocation's channel, when the invoker may read them. */
function readableWorldMessages(scene: InvocationScene): ChannelMessage[] {
  if (!scene.inGuild || !mayReadHistory(scene)) return [];
  return scene.inGuild.guild.messages.filter((m) => m.channel_id === scene.channel.id);
}

export class InteractionsService {
  private readonly timers = new Set<NodeJS.Timeout>();
  private log: DeliveryLog | null = null;
  private readonly metrics: DeliveryMetrics & InteractionMetrics;

  private readonly components: ComponentInteractions;

  constructor(private readonly deps: InteractionsServiceDeps) {
    this.metrics = deps.metrics ?? NO_METRICS;
    this.components = new ComponentInteractions({
      store: deps.store,
      ids: deps.ids,
      now: deps.now,
      renderer: new MessageRenderer(deps.store),
    });
  }

  /** The logger exists once the HTTP server does, after this service. */
  logTo(log: DeliveryLog): void {
    this.log = log;
  }

  async invoke(user: User, body: unknown, context?: RequestContext): Promise<InvokeResult> {
    if (
      isRecord(body) &&
      (body.type === InteractionType.MessageComponent || body.type === InteractionType.ModalSubmit)
    ) {
      return this.invokeComponent(user, body, context);
    }
    const parsed = readInvokeRequest(body);
    if (!parsed.ok) throw invalidFormBody(parsed.issues);
    const request = parsed.value;
    const scene = await loadScene(this.deps.store, user, request);
    checkAccess(scene);
    if (request.data.version !== scene.command.version) throw outdatedCommand(scene);
    const record = await this.record(scene, request);
    await this.dispatch(scene, record, context);
    return this.outcome(record);
  }

  /** A click (3) or a modal submission (5): checked against what the app sent, then delivered as commands are. */
  private async invokeComponent(user: User, body: JsonRecord, context?: RequestContext): Promise<InvokeResult> {
    const parsed =
      body.type === InteractionType.MessageComponent ? readComponentRequest(body) : readModalSubmitRequest(body);
    if (!parsed.ok) throw invalidFormBody(parsed.issues);
    const request = parsed.value;
    const { app, record } =
      request.type === 3
        ? await this.components.prepareClick(user, request)
        : await this.components.prepareModalSubmit(user, request);
    await this.deps.store.interactions.putInteraction(record);
    this.metrics.interaction('created');
    await this.deliver(app, record, context);
    return this.outcome(record);
  }

  /** What `POST /interactions` answers: the state once the delivery attempt is over. */
  private async outcome(record: InteractionRecord): Promise<InvokeResult> {
    const stored =
      (await this.deps.store.interactions.getInteractionState(record.application_id, record.id)) ?? record.state;
    const { state } = currentState({ ...record, state: stored }, this.deps.now());
    return { id: record.id, nonce: record.nonce, state };
  }

  /**
   * slashd's own message a MESSAGE command targets, when this user can see it: looked up by id, so
   * that any message of the channel can be targeted and other invocations read no messages at all.
   */
  private async targetedMessage(scene: InvocationScene, request: InvokeRequest): Promise<StoredMessage | null> {
    const targetId = request.data.target_id;
    if (scene.command.definition.type !== CommandType.Message || !isSnowflake(targetId)) return null;
    const message = await this.deps.store.interactions.getMessage(scene.channel.id, targetId);
    return message && messageReadableIn(scene, message) ? message : null;
  }

  private async record(invoked: InvocationScene, request: InvokeRequest): Promise<InteractionRecord> {
    const kind = request.type === InteractionType.ApplicationCommandAutocomplete ? 'autocomplete' : 'command';
    // A MESSAGE command may target the world's messages and slashd's own that this user can see.
    const messages: ChannelMessage[] = readableWorldMessages(invoked);
    const own = await this.targetedMessage(invoked, request);
    if (own) messages.push(own);
    // Only the users the request can name: never every user of the world (nor every member).
    const users = await this.deps.store.world.getUsers(userIdsNamedBy(request.data, messages));
    const scene = await withNamedMembers(
      this.deps.store,
      invoked,
      users.map((u) => u.id),
    );
    const guild = scene.inGuild?.guild ?? null;
    const checked = checkInvocation(scene.command, request.data, kind, {
      guild: viewableGuild(scene),
      channel: scene.channel,
      messages,
      users,
    });
    if (!checked.ok) throw invalidFormBody(checked.issues);
    const id = this.deps.ids.next();
    const token = makeInteractionToken(scene.app.id, id, randomBytes(32).toString('base64url'));
    const member = scene.inGuild?.member ?? null;
    const payload = buildInteraction({
      id,
      token,
      kind,
      app: scene.app,
      command: scene.command,
      checked: checked.value,
      user: scene.user,
      guild,
      member,
      channel: scene.channel,
      locale: scene.user.locale,
      messages,
      users,
      authorizingIntegrationOwners: guild
        ? { '0': guild.id }
        : dmAuthorization(scene.command, scene.userInstalled) === 'user_install'
          ? { '1': scene.user.id }
          : { '0': '0' },
      context: guild ? 0 : 1,
      appPermissions: guild ? formatPermissions(appChannelPermissions(guild, scene.app.id, scene.channel)) : '0',
      memberPermissions: guild && member ? formatPermissions(channelPermissions(guild, member, scene.channel)) : null,
    });
    const record: InteractionRecord = {
      id,
      application_id: scene.app.id,
      type: request.type,
      token,
      user_id: scene.user.id,
      guild_id: guild?.id ?? null,
      channel_id: scene.channel.id,
      command_id: scene.command.id,
      command_name: invokedName(scene.command.definition.name, request.data.options),
      command_type: scene.command.definition.type,
      nonce: request.nonce,
      state: 'pending',
      failure_reason: null,
      response: null,
      created_at: this.deps.now(),
      original_message_id: null,
      focused_option: checked.value.focused?.option ?? null,
      activity_instance_id: null,
      payload,
    };
    await this.deps.store.interactions.putInteraction(record);
    this.metrics.interaction('created');
    return record;
  }

  private async dispatch(scene: InvocationScene, record: InteractionRecord, context?: RequestContext): Promise<void> {
    const { definition } = scene.command;
    if (
      definition.type === CommandType.PrimaryEntryPoint &&
      definition.handler === EntryPointHandler.DiscordLaunchActivity
    ) {
      await this.deps.responses.launchActivityForUser(scene.app, record);
      return;
    }
    await this.deliver(scene.app, record, context);
  }

  /** Over HTTP to the app's endpoint, or on the bus for its gateway session; fails after 3 seconds unanswered. */
  private async deliver(app: StoredApplication, record: InteractionRecord, context?: RequestContext): Promise<void> {
    this.scheduleTimeout(record);
    await this.clientMayGiveUp(record);
    const fault = this.deps.faults?.strike({ applicationId: app.id, family: 'delivery' }) ?? null;
    if (fault) await this.step(record, 'fault', { fault_id: fault.id, kind: fault.kind });
    if (fault?.kind === 'drop') {
      (context?.log ?? this.log)?.info(
        { applicationId: record.application_id, interactionId: record.id, faultId: fault.id },
        'interaction delivery dropped (injected fault)',
      );
      return;
    }
    if (fault?.kind === 'late') await delay(fault.latency_ms);
    const copies = fault?.kind === 'duplicate' ? 2 : 1;
    const url = app.interactions_endpoint_url;
    if (!url) {
      const sessionId = this.deps.presence ? await this.deps.presence.sessionFor(app.id, record.guild_id) : null;
      if (sessionId === null && this.deps.presence && this.deps.failWithoutSession !== false) {
        this.metrics.delivery('gateway', 'no_session');
        await this.step(record, 'delivery', { transport: 'gateway', outcome: 'no_session' });
        await this.recordDeliveryFailure(record, 'delivery_failure', NO_BOT_CONNECTED_DETAIL, context);
        return;
      }
      for (let copy = 0; copy < copies; copy++) {
        this.deps.bus.publish('INTERACTION_CREATE', {
          applicationId: app.id,
          data: record.payload,
          ...(sessionId === null ? {} : { sessionId }),
        });
      }
      this.metrics.delivery('gateway', 'ok');
      await this.step(record, 'delivery', { transport: 'gateway', outcome: 'published', copies });
      return;
    }
    const started = this.deps.now();
    const remaining = record.created_at + INITIAL_RESPONSE_DEADLINE_MS - started;
    const deliver = () =>
      this.deps.delivery.deliver(app, url, record.payload, Math.max(1, remaining), context?.requestId);
    // A duplicated delivery: the same interaction twice at once; the first answer counts, as
    // the app's callback for the second is refused (40060) like any second acknowledgement.
    const [outcome] = await Promise.all([deliver(), ...(copies > 1 ? [deliver()] : [])]);
    // Past the deadline (the endpoint did not answer in time, and the request was aborted) it is
    // a timeout, whichever of the abort and the deadline timer came first.
    const late = outcome.kind === 'failed' && this.deps.now() >= record.created_at + INITIAL_RESPONSE_DEADLINE_MS;
    const result = outcome.kind !== 'failed' ? 'ok' : late ? 'timeout' : outcome.cause;
    this.metrics.delivery('http', result);
    // One line per delivery; the endpoint's URL is not in it (an app may keep a secret in its URL).
    const delivered = { outcome: result, durationMs: this.deps.now() - started };
    await this.step(record, 'delivery', {
      transport: 'http',
      started_at: new Date(started).toISOString(),
      duration_ms: delivered.durationMs,
      outcome: result,
      answer: outcome.kind,
      ...(outcome.kind === 'failed' ? { reason: outcome.reason } : {}),
      copies,
    });
    if (outcome.kind === 'failed') {
      const reason = late ? 'timeout' : 'delivery_failure';
      const detail =
        !late && outcome.cause === 'connect_error' ? unreachableEndpointDetail(outcome.reason) : outcome.reason;
      await this.recordDeliveryFailure(record, reason, detail, context, delivered);
      return;
    }
    (context?.log ?? this.log)?.info(
      { applicationId: record.application_id, interactionId: record.id, answer: outcome.kind, ...delivered },
      'interaction delivered',
    );
    if (outcome.kind === 'inline') await this.deps.responses.acceptInlineResponse(app, record, outcome.response);
  }

  /**
   * A `client_gave_up` fault: the user's client stopped waiting, so the interaction is failed as
   * past its 3 s deadline before it is delivered; the app still gets it, and its answer is refused
   * (10062 Unknown interaction) as it would be after the deadline.
   */
  private async clientMayGiveUp(record: InteractionRecord): Promise<void> {
    const fault = this.deps.faults?.strike({ applicationId: record.application_id, family: 'interaction' });
    if (!fault) return;
    const failed = await this.deps.store.interactions.updateInteraction(record.application_id, record.id, ['pending'], {
      state: 'failed',
      failure_reason: 'timeout',
      failure_detail: CLIENT_GAVE_UP_DETAIL,
    });
    if (failed) this.metrics.interaction('failed', 'timeout');
    await this.step(record, 'fault', { fault_id: fault.id, kind: fault.kind });
  }

  /** A step of the interaction's transcript (GET /admin/interactions/{id}/transcript). */
  private async step(record: InteractionRecord, kind: string, detail: Record<string, unknown>): Promise<void> {
    await appendStep(this.deps, record, kind, detail);
  }

  /**
   * The interaction's transcript for the admin API: the invocation, each recorded step (delivery
   * attempts with timing and outcome, faults, answers, follow-ups, edits) and the messages it
   * produced; null when no application has an interaction with this id.
   */
  async transcript(interactionId: string): Promise<Record<string, unknown> | null> {
    const { world, interactions } = this.deps.store;
    let record: InteractionRecord | null = null;
    for (const app of await world.listApplications()) {
      record = await interactions.getInteraction(app.id, interactionId);
      if (record) break;
    }
    if (!record) return null;
    const steps = await interactions.listTranscript(record.application_id, record.id);
    const messageIds = new Set<string>();
    if (record.original_message_id) messageIds.add(record.original_message_id);
    for (const step of steps) if (typeof step.detail.message_id === 'string') messageIds.add(step.detail.message_id);
    const messages = [];
    for (const id of messageIds) {
      const message = await interactions.getMessage(record.channel_id, id);
      if (message) messages.push(message);
    }
    const { state, reason } = currentState(record, this.deps.now());
    return {
      id: record.id,
      application_id: record.application_id,
      created_at: new Date(record.created_at).toISOString(),
      state,
      failure_reason: state === 'failed' ? reason : null,
      failure_detail: record.failure_detail ?? null,
      invocation: {
        type: record.type,
        command_id: record.command_id,
        command_name: record.command_name,
        user_id: record.user_id,
        guild_id: record.guild_id,
        channel_id: record.channel_id,
        nonce: record.nonce,
        // The interaction token is a credential: never in an answer about the interaction.
        payload: { ...record.payload, token: undefined },
      },
      steps: steps.map((step) => ({ ...step, at: new Date(step.at).toISOString() })),
      response: record.response,
      messages,
    };
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
    if (failed) this.metrics.interaction('failed', reason);
    // Logged even when the deadline timer failed it first: the cause is only known here.
    (context?.log ?? this.log)?.info(
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
      void this.deps.store.interactions
        .updateInteraction(record.application_id, record.id, ['pending'], {
          state: 'failed',
          failure_reason: 'timeout',
          failure_detail: NO_ANSWER_DETAIL,
        })
        .then((failed) => {
          if (failed) this.metrics.interaction('failed', 'timeout');
        })
        .catch(() => undefined);
    }, INITIAL_RESPONSE_DEADLINE_MS);
    timer.unref();
    this.timers.add(timer);
  }

  /** The interaction as its invoking user sees it: state, and the app's response. */
  async status(user: User, interactionId: string): Promise<Record<string, unknown> | null> {
    const record = await this.deps.store.interactions.findUserInteraction(user.id, interactionId);
    if (!record || !(await this.invokerStillReads(user, record))) return null;
    const { state, reason } = currentState(record, this.deps.now());
    const out: Record<string, unknown> = { id: record.id, nonce: record.nonce, state, response: record.response };
    if (state === 'failed') {
      out.failure_reason = reason;
      if (record.failure_detail) out.failure_detail = record.failure_detail;
    }
    return out;
  }

  /**
   * The response is a message of the channel: the invoker sees it only while they may still read
   * that channel, else the interaction is unknown to them (its channel's existence stays hidden).
   */
  private async invokerStillReads(user: User, record: InteractionRecord): Promise<boolean> {
    if (record.guild_id === null) return true;
    const guild = await this.deps.store.world.getGuildWithMembers(record.guild_id, [user.id]);
    const member = guild ? memberOf(guild, user.id) : undefined;
    const channel = guild?.channels.find((c) => c.id === record.channel_id);
    return (
      guild !== null &&
      guild !== undefined &&
      member !== undefined &&
      channel !== undefined &&
      canReadMessages(guild, member, channel)
    );
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
