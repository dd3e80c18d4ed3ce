/**
 * Invoking: a user's command (types 2 and 4), click (3) or modal submission (5) is checked before
 * anything reaches the app, recorded, then delivered (interaction-delivery.ts); `POST /interactions`
 * answers with the state once the delivery attempt is over.
 */
import { InteractionType } from 'discord-api-types/v10';
import { CommandType, EntryPointHandler } from '../../core/commands/model.js';
import { invalidFormBody } from '../../core/io/errors.js';
import { isRecord, type JsonRecord } from '../../core/io/read.js';
import { currentState, type InteractionRecord } from './rules/lifecycle.js';
import { readComponentRequest, readModalSubmitRequest } from './rules/component-request.js';
import { readInvokeRequest } from './rules/request.js';
import type { SnowflakeGenerator } from '../../core/snowflake.js';
import type { User } from '../../core/world/types.js';
import type { InteractionMetrics } from '../../metrics/metrics.js';
import type { Store } from '../../store/store.js';
import { CommandInvocations } from './command-invocations.js';
import { ComponentInteractions } from './component-interactions.js';
import type { InteractionDelivery, RequestContext } from './delivery.js';
import type { MessageRenderer } from '../messages/renderer.js';
import type { CallbacksService } from './callbacks-service.js';

export interface InvokeResult {
  id: string;
  nonce: string | null;
  state: string;
}

export interface InteractionsServiceDeps {
  store: Pick<Store, 'world' | 'members' | 'oauth2Grants' | 'commands' | 'interactions' | 'dms' | 'entitlements'>;
  ids: SnowflakeGenerator;
  delivery: Pick<InteractionDelivery, 'deliver' | 'ensureDeliverable'>;
  /** Launches an Activity itself for an entry point whose handler is DISCORD_LAUNCH_ACTIVITY. */
  callbacks: Pick<CallbacksService, 'launchActivityForUser'>;
  now: () => number;
  metrics: InteractionMetrics;
  /** Renders the messages clicks carry (with attachment URLs on the public origin). */
  renderer: MessageRenderer;
}

export class InteractionsService {
  private readonly commands: CommandInvocations;
  private readonly components: ComponentInteractions;

  constructor(private readonly deps: InteractionsServiceDeps) {
    this.commands = new CommandInvocations({ store: deps.store, ids: deps.ids, now: deps.now });
    this.components = new ComponentInteractions({
      store: deps.store,
      ids: deps.ids,
      now: deps.now,
      renderer: deps.renderer,
    });
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
    const { scene, record } = await this.commands.prepare(user, parsed.value, context?.attachments);
    const { definition } = scene.command;
    const launchesActivity =
      definition.type === CommandType.PrimaryEntryPoint &&
      definition.handler === EntryPointHandler.DiscordLaunchActivity;
    if (!launchesActivity) this.deps.delivery.ensureDeliverable(scene.app);
    await this.keep(record);
    if (launchesActivity) {
      await this.deps.callbacks.launchActivityForUser(scene.app, record);
    } else {
      await this.deps.delivery.deliver(scene.app, record, context);
    }
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
    this.deps.delivery.ensureDeliverable(app);
    await this.keep(record);
    await this.deps.delivery.deliver(app, record, context);
    return this.outcome(record);
  }

  /** The checked interaction is stored (and counted) before it is delivered. */
  private async keep(record: InteractionRecord): Promise<void> {
    await this.deps.store.interactions.putInteraction(record);
    this.deps.metrics.interaction('created');
  }

  /** What `POST /interactions` answers: the state once the delivery attempt is over. */
  private async outcome(record: InteractionRecord): Promise<InvokeResult> {
    const stored =
      (await this.deps.store.interactions.getInteractionState(record.application_id, record.id)) ?? record.state;
    const { state } = currentState({ ...record, state: stored }, this.deps.now());
    return { id: record.id, nonce: record.nonce, state };
  }
}
