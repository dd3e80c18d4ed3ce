/**
 * Subscriptions of the monetization sandbox (v10's `GET /skus/{id}/subscriptions` and
 * `.../{sid}`): an app reads its users' subscriptions; the admin API buys, renews, cancels and
 * deletes them (what a store and its clock would do), and the console lets its signed-in user
 * buy, cancel and consume. Each change is told to the app's sessions (SUBSCRIPTION_CREATE /
 * UPDATE / DELETE, and ENTITLEMENT_* for the entitlement a subscription grants), as v10 sends them.
 */
import { SKUType, type APIEntitlement, type APISKU, type APISubscription } from 'discord-api-types/v10';
import { ENTITLEMENTS_MAX, SKU_NOT_SUBSCRIPTION } from '../../core/io/codes.js';
import { apiError, invalidFormBody } from '../../core/io/errors.js';
import { issue } from '../../core/io/issue.js';
import { orThrow } from '../../core/io/result.js';
import { isSnowflake, type SnowflakeGenerator } from '../../core/snowflake.js';
import type { EventBus } from '../../events/bus.js';
import type { WorldStore } from '../../store/store.js';
import {
  ENTITLEMENTS_PER_APPLICATION_MAX,
  entitlementActive,
  readPurchaseBody,
  toWireEntitlement,
  toWireSku,
  type StoredEntitlement,
  type StoredSku,
} from '../entitlements/rules.js';
import type { EntitlementsService } from '../entitlements/service.js';
import type { EntitlementStore } from '../entitlements/store.js';
import {
  STORE_SHELVES_MAX,
  SUBSCRIPTIONS_PER_APPLICATION_MAX,
  canceled,
  newSubscription,
  periodEnded,
  readSubscriptionUserParam,
  readSubscriptionsQuery,
  subscriptionLive,
  toWireSubscription,
  type StoredSubscription,
} from './rules.js';
import type { SubscriptionStore } from './store.js';

export interface SubscriptionsDeps {
  subscriptions: SubscriptionStore;
  entitlementStore: Pick<EntitlementStore, 'listSkus' | 'getEntitlement' | 'listOwnedEntitlements'>;
  entitlements: Pick<EntitlementsService, 'purchase' | 'consume'>;
  world: Pick<WorldStore, 'getUser' | 'getApplication' | 'listApplications'>;
  bus: EventBus;
  ids: Pick<SnowflakeGenerator, 'next'>;
  now: () => number;
  /** Whether the console's signed-in users may buy (a sandbox: `--demo`); else its purchases are 404. */
  sandboxPurchases: boolean;
}

/** One application's shelf of the console's Store: its SKUs and what the signed-in user holds of them. */
export interface StoreShelf {
  application: { id: string; name: string };
  skus: APISKU[];
  entitlements: APIEntitlement[];
  subscriptions: APISubscription[];
}

/** What a purchase came to: the entitlement granted, and the subscription when its SKU is one. */
export interface Purchase {
  entitlement: APIEntitlement;
  subscription: APISubscription | null;
}

type SubscriptionEvent = 'SUBSCRIPTION_CREATE' | 'SUBSCRIPTION_UPDATE' | 'SUBSCRIPTION_DELETE';
type EntitlementEvent = 'ENTITLEMENT_CREATE' | 'ENTITLEMENT_UPDATE' | 'ENTITLEMENT_DELETE';

export class SubscriptionsService {
  constructor(private readonly deps: SubscriptionsDeps) {}

  /** `GET /skus/{sku}/subscriptions?user_id=`: the user's subscriptions to one of the caller's SKUs. */
  async list(
    applicationId: string,
    skuId: string,
    query: Readonly<Record<string, unknown>>,
  ): Promise<APISubscription[]> {
    await this.sku(applicationId, skuId);
    const read = orThrow(readSubscriptionsQuery(query));
    const rows = await this.deps.subscriptions.listSubscriptions(applicationId, { skuId, ...read });
    // v10 answers a page in id order whichever way it was paged.
    return (read.after !== undefined ? rows : rows.reverse()).map(toWireSubscription);
  }

  /** `GET /skus/{sku}/subscriptions/{sid}`: one of the caller's, of that SKU (and that user, when named). */
  async get(
    applicationId: string,
    skuId: string,
    subscriptionId: string,
    query: Readonly<Record<string, unknown>>,
  ): Promise<APISubscription> {
    await this.sku(applicationId, skuId);
    const userId = orThrow(readSubscriptionUserParam(query));
    const subscription = await this.find(applicationId, subscriptionId);
    if (!subscription.sku_ids.includes(skuId) || (userId !== undefined && subscription.user_id !== userId)) {
      throw apiError('NotFound');
    }
    return toWireSubscription(subscription);
  }

  /** The admin API's `POST /admin/applications/{id}/subscriptions` `{sku_id, user_id}`. */
  async adminSubscribe(applicationId: string, body: unknown): Promise<APISubscription> {
    await this.application(applicationId);
    const request = orThrow(readPurchaseBody(body));
    const sku = await this.sku(applicationId, request.skuId);
    if (sku.type !== SKUType.Subscription) {
      throw invalidFormBody([issue(['sku_id'], SKU_NOT_SUBSCRIPTION, 'The SKU is not a subscription.')]);
    }
    return toWireSubscription((await this.subscribe(sku, request.userId)).subscription);
  }

  /**
   * The admin API's purchase, `POST /admin/applications/{id}/entitlements` `{sku_id, user_id}`,
   * as a store would grant it: the entitlement, of a subscription made for a subscription SKU.
   */
  async adminPurchase(applicationId: string, body: unknown): Promise<APIEntitlement> {
    await this.application(applicationId);
    const request = orThrow(readPurchaseBody(body));
    const sku = await this.sku(applicationId, request.skuId);
    if (sku.type !== SKUType.Subscription)
      return this.deps.entitlements.purchase(applicationId, sku.id, request.userId);
    return toWireEntitlement((await this.subscribe(sku, request.userId)).entitlement);
  }

  /** The admin API's renewal: the current period ends now (an ending subscription becomes inactive). */
  async adminRenew(applicationId: string, subscriptionId: string): Promise<APISubscription> {
    await this.application(applicationId);
    const subscription = await this.find(applicationId, subscriptionId);
    const entitlement = await this.entitlementOf(subscription);
    const next = orThrow(periodEnded(subscription, entitlement, this.deps.now()));
    await this.write(next.subscription, next.entitlement);
    if (next.entitlement) this.tellEntitlement('ENTITLEMENT_UPDATE', next.entitlement);
    this.tellSubscription('SUBSCRIPTION_UPDATE', next.subscription);
    return toWireSubscription(next.subscription);
  }

  /** The admin API's cancel: an active subscription ends with its period (again: no change). */
  async adminCancel(applicationId: string, subscriptionId: string): Promise<APISubscription> {
    await this.application(applicationId);
    return toWireSubscription(await this.cancel(await this.find(applicationId, subscriptionId)));
  }

  /** The admin API's delete (a refund): the subscription goes, its entitlement is deleted. */
  async adminDelete(applicationId: string, subscriptionId: string): Promise<void> {
    await this.application(applicationId);
    const subscription = await this.find(applicationId, subscriptionId);
    const held = await this.entitlementOf(subscription);
    const entitlement = held && !held.deleted ? { ...held, deleted: true } : null;
    if (!(await this.deps.subscriptions.deleteSubscription(subscription, entitlement))) throw apiError('NotFound');
    if (entitlement) this.tellEntitlement('ENTITLEMENT_DELETE', entitlement);
    this.tellSubscription('SUBSCRIPTION_DELETE', subscription);
  }

  /** The console's Store: every application with SKUs, and what the user holds of each. */
  async shelves(userId: string): Promise<StoreShelf[]> {
    const shelves: StoreShelf[] = [];
    for (const app of await this.deps.world.listApplications()) {
      if (shelves.length >= STORE_SHELVES_MAX) break;
      const skus = await this.deps.entitlementStore.listSkus(app.id);
      if (skus.length === 0) continue;
      const owned = await this.deps.entitlementStore.listOwnedEntitlements(app.id, [userId]);
      const subscriptions = await this.deps.subscriptions.listUserSubscriptions(app.id, userId);
      shelves.push({
        application: { id: app.id, name: app.name },
        skus: skus.map(toWireSku),
        entitlements: owned.filter((e) => !e.deleted).map(toWireEntitlement),
        subscriptions: subscriptions.map(toWireSubscription),
      });
    }
    return shelves;
  }

  /**
   * A sandbox purchase by the signed-in user (the console's Store and premium buttons): a
   * subscription SKU makes a subscription (or keeps the live one), a durable one an entitlement
   * unless the user holds an active one already (that one is answered), a consumable one an
   * entitlement each time.
   */
  async purchase(userId: string, applicationId: string, body: unknown): Promise<Purchase> {
    this.sandbox();
    await this.application(applicationId);
    const request = orThrow(readPurchaseBody({ ...(isObject(body) ? body : {}), user_id: userId }));
    const sku = await this.sku(applicationId, request.skuId);
    if (sku.type === SKUType.Durable) {
      const owned = await this.deps.entitlementStore.listOwnedEntitlements(applicationId, [userId]);
      const held = owned.find((e) => e.sku_id === sku.id && entitlementActive(e, this.deps.now()));
      if (held) return { entitlement: toWireEntitlement(held), subscription: null };
    }
    if (sku.type !== SKUType.Subscription) {
      return { entitlement: await this.deps.entitlements.purchase(applicationId, sku.id, userId), subscription: null };
    }
    const bought = await this.subscribe(sku, userId);
    return {
      entitlement: toWireEntitlement(bought.entitlement),
      subscription: toWireSubscription(bought.subscription),
    };
  }

  /** The signed-in user cancels one of their subscriptions (another's is 404, as one that is not). */
  async cancelOwn(userId: string, applicationId: string, subscriptionId: string): Promise<APISubscription> {
    this.sandbox();
    const subscription = await this.find(applicationId, subscriptionId);
    if (subscription.user_id !== userId) throw apiError('NotFound');
    return toWireSubscription(await this.cancel(subscription));
  }

  /** The signed-in user uses up one of their consumables (another's is 10029, as one that is not). */
  async consumeOwn(userId: string, applicationId: string, entitlementId: string): Promise<APIEntitlement> {
    this.sandbox();
    const entitlement = isSnowflake(entitlementId)
      ? await this.deps.entitlementStore.getEntitlement(applicationId, entitlementId)
      : null;
    if (!entitlement || entitlement.user_id !== userId) throw apiError('UnknownEntitlement');
    await this.deps.entitlements.consume(applicationId, applicationId, entitlementId);
    return toWireEntitlement({ ...entitlement, consumed: true });
  }

  private async subscribe(
    sku: StoredSku,
    userId: string,
  ): Promise<{ subscription: StoredSubscription; entitlement: StoredEntitlement }> {
    if (!(await this.deps.world.getUser(userId))) throw apiError('UnknownUser');
    const live = (await this.deps.subscriptions.listUserSubscriptions(sku.application_id, userId)).find(
      (subscription) => subscription.sku_ids.includes(sku.id) && subscriptionLive(subscription),
    );
    if (live) {
      const entitlement = await this.entitlementOf(live);
      if (entitlement) return { subscription: live, entitlement };
    }
    const made = newSubscription(
      { entitlement: this.deps.ids.next(), subscription: this.deps.ids.next() },
      sku,
      userId,
      this.deps.now(),
    );
    const created = await this.deps.subscriptions.createSubscription(made.subscription, made.entitlement, {
      subscriptions: SUBSCRIPTIONS_PER_APPLICATION_MAX,
      entitlements: ENTITLEMENTS_PER_APPLICATION_MAX,
    });
    if (created !== 'created') {
      const [what, max] =
        created === 'subscriptions-full'
          ? ['subscriptions', SUBSCRIPTIONS_PER_APPLICATION_MAX]
          : ['entitlements', ENTITLEMENTS_PER_APPLICATION_MAX];
      throw invalidFormBody([issue(['sku_id'], ENTITLEMENTS_MAX, `Maximum number of ${what} reached (${max}).`)]);
    }
    this.tellEntitlement('ENTITLEMENT_CREATE', made.entitlement);
    this.tellSubscription('SUBSCRIPTION_CREATE', made.subscription);
    return made;
  }

  private async cancel(subscription: StoredSubscription): Promise<StoredSubscription> {
    const next = canceled(subscription, this.deps.now());
    if (!next) return subscription;
    await this.write(next, null);
    this.tellSubscription('SUBSCRIPTION_UPDATE', next);
    return next;
  }

  private async write(subscription: StoredSubscription, entitlement: StoredEntitlement | null): Promise<void> {
    if (!(await this.deps.subscriptions.updateSubscription(subscription, entitlement))) throw apiError('NotFound');
  }

  /** The entitlement the subscription grants (its latest). */
  private async entitlementOf(subscription: StoredSubscription): Promise<StoredEntitlement | null> {
    const id = subscription.entitlement_ids.at(-1);
    return id === undefined ? null : this.deps.entitlementStore.getEntitlement(subscription.application_id, id);
  }

  private async find(applicationId: string, subscriptionId: string): Promise<StoredSubscription> {
    const subscription = isSnowflake(subscriptionId)
      ? await this.deps.subscriptions.getSubscription(applicationId, subscriptionId)
      : null;
    if (!subscription) throw apiError('NotFound');
    return subscription;
  }

  /** A SKU of the application (another app's is 10027, as one that is not). */
  private async sku(applicationId: string, skuId: string): Promise<StoredSku> {
    const sku = isSnowflake(skuId)
      ? (await this.deps.entitlementStore.listSkus(applicationId)).find((candidate) => candidate.id === skuId)
      : undefined;
    if (!sku) throw apiError('UnknownSku');
    return sku;
  }

  private async application(applicationId: string): Promise<void> {
    if (!isSnowflake(applicationId) || !(await this.deps.world.getApplication(applicationId))) {
      throw apiError('UnknownApplication');
    }
  }

  private sandbox(): void {
    if (!this.deps.sandboxPurchases) throw apiError('NotFound');
  }

  private tellEntitlement(t: EntitlementEvent, entitlement: StoredEntitlement): void {
    this.deps.bus.publish('APPLICATION_DISPATCH', {
      applicationId: entitlement.application_id,
      guildId: entitlement.guild_id,
      t,
      d: toWireEntitlement(entitlement),
    });
  }

  private tellSubscription(t: SubscriptionEvent, subscription: StoredSubscription): void {
    this.deps.bus.publish('APPLICATION_DISPATCH', {
      applicationId: subscription.application_id,
      guildId: null,
      t,
      d: toWireSubscription(subscription),
    });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
