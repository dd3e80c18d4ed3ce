/**
 * The monetization sandbox (v10 SKU and Entitlement endpoints): an app reads its SKUs, lists and
 * reads its entitlements, creates and deletes test entitlements, and consumes consumable ones; the
 * admin API (and the console's sandbox purchase) defines the SKUs and grants purchases. Each change
 * is told to the app's sessions (ENTITLEMENT_CREATE / UPDATE / DELETE), as v10 sends them.
 */
import { EntitlementOwnerType, EntitlementType, SKUType } from 'discord-api-types/v10';
import type { APIEntitlement, APISKU } from 'discord-api-types/v10';
import { ENTITLEMENTS_MAX } from '../../core/io/codes.js';
import { apiError, invalidFormBody } from '../../core/io/errors.js';
import { issue, type Issue } from '../../core/io/issue.js';
import { readList } from '../../core/io/read.js';
import { reportDuplicateValue, reportTooLong } from '../../core/io/report.js';
import { orThrow } from '../../core/io/result.js';
import { isSnowflake, type SnowflakeGenerator } from '../../core/snowflake.js';
import type { EventBus } from '../../events/bus.js';
import type { GuildMemberStore, WorldStore } from '../../store/store.js';
import {
  ENTITLEMENTS_PER_APPLICATION_MAX,
  SKUS_PER_APPLICATION_MAX,
  matchesQuery,
  newTestEntitlement,
  notConsumable,
  readEntitlementsQuery,
  readSkuDefinition,
  readTestEntitlementBody,
  toWireEntitlement,
  toWireSku,
  type StoredEntitlement,
  type StoredSku,
} from './rules.js';
import type { EntitlementStore } from './store.js';

export interface EntitlementsDeps {
  entitlements: EntitlementStore;
  world: Pick<WorldStore, 'getUser' | 'getApplication'>;
  members: Pick<GuildMemberStore, 'getGuildWithMembers'>;
  bus: EventBus;
  ids: Pick<SnowflakeGenerator, 'next'>;
  now: () => number;
}

export class EntitlementsService {
  constructor(private readonly deps: EntitlementsDeps) {}

  /** `GET /applications/{id}/skus`. */
  async listSkus(applicationId: string, pathApplicationId: string): Promise<APISKU[]> {
    ownApplication(applicationId, pathApplicationId);
    return (await this.deps.entitlements.listSkus(applicationId)).map(toWireSku);
  }

  /** `GET /applications/{id}/entitlements`, with every filter v10 has. */
  async list(
    applicationId: string,
    pathApplicationId: string,
    query: Readonly<Record<string, unknown>>,
  ): Promise<APIEntitlement[]> {
    ownApplication(applicationId, pathApplicationId);
    const read = orThrow(readEntitlementsQuery(query));
    const rows = await this.deps.entitlements.listEntitlements(applicationId, read);
    const now = this.deps.now();
    const kept = rows.filter((row) => matchesQuery(row, read, now)).slice(0, read.limit);
    // v10 answers a page in id order whichever way it was paged.
    return (read.after !== undefined ? kept : kept.reverse()).map(toWireEntitlement);
  }

  /** `GET /applications/{id}/entitlements/{eid}`. */
  async get(applicationId: string, pathApplicationId: string, entitlementId: string): Promise<APIEntitlement> {
    ownApplication(applicationId, pathApplicationId);
    return toWireEntitlement(await this.find(applicationId, entitlementId));
  }

  /** `POST /applications/{id}/entitlements`: a test entitlement (type 4) for a user or a guild. */
  async createTest(applicationId: string, pathApplicationId: string, body: unknown): Promise<APIEntitlement> {
    ownApplication(applicationId, pathApplicationId);
    const request = orThrow(readTestEntitlementBody(body));
    const sku = await this.sku(applicationId, request.skuId);
    await this.checkOwner(request.ownerType, request.ownerId);
    const entitlement = newTestEntitlement(this.deps.ids.next(), applicationId, sku, request);
    await this.create(entitlement);
    return toWireEntitlement(entitlement);
  }

  /** `DELETE /applications/{id}/entitlements/{eid}`: test entitlements only, as v10 (others are 10029). */
  async deleteTest(applicationId: string, pathApplicationId: string, entitlementId: string): Promise<void> {
    ownApplication(applicationId, pathApplicationId);
    const entitlement = await this.find(applicationId, entitlementId);
    if (entitlement.type !== EntitlementType.TestModePurchase || entitlement.deleted) {
      throw apiError('UnknownEntitlement');
    }
    const deleted = { ...entitlement, deleted: true };
    await this.update(deleted, 'ENTITLEMENT_DELETE');
  }

  /** `POST /applications/{id}/entitlements/{eid}/consume`: a consumable's, once (again is no change). */
  async consume(applicationId: string, pathApplicationId: string, entitlementId: string): Promise<void> {
    ownApplication(applicationId, pathApplicationId);
    const entitlement = await this.find(applicationId, entitlementId);
    const sku = await this.sku(applicationId, entitlement.sku_id).catch(() => null);
    if (!sku || sku.type !== SKUType.Consumable) throw invalidFormBody(notConsumable());
    if (entitlement.consumed) return;
    await this.update({ ...entitlement, consumed: true }, 'ENTITLEMENT_UPDATE');
  }

  /** The admin API's `PUT /admin/applications/{id}/skus`: the application's SKUs, replaced. */
  async putSkus(applicationId: string, body: unknown): Promise<APISKU[]> {
    if (!(await this.deps.world.getApplication(applicationId))) throw apiError('UnknownApplication');
    const issues: Issue[] = [];
    const list = readList(body, [], issues) ?? [];
    if (list.length > SKUS_PER_APPLICATION_MAX) reportTooLong(issues, [], SKUS_PER_APPLICATION_MAX);
    const skus: StoredSku[] = [];
    list.forEach((value, index) => {
      const sku = readSkuDefinition(value, [index], applicationId, issues);
      if (sku && skus.some((other) => other.id === sku.id)) {
        reportDuplicateValue(issues, [index, 'id'], sku.id);
      } else if (sku) skus.push(sku);
    });
    if (issues.length > 0) throw invalidFormBody(issues);
    await this.deps.entitlements.putSkus(applicationId, skus);
    return skus.map(toWireSku);
  }

  /**
   * A sandbox purchase of a SKU that is no subscription (the subscriptions service's purchases
   * make a subscription of those): a type 1 entitlement of the user to the SKU, with no end.
   */
  async purchase(applicationId: string, skuId: string, userId: string): Promise<APIEntitlement> {
    const sku = await this.sku(applicationId, skuId);
    await this.checkOwner(EntitlementOwnerType.User, userId);
    const now = this.deps.now();
    const subscription = sku.type === SKUType.Subscription;
    const entitlement: StoredEntitlement = {
      id: this.deps.ids.next(),
      application_id: applicationId,
      sku_id: sku.id,
      user_id: userId,
      guild_id: null,
      type: subscription ? EntitlementType.ApplicationSubscription : EntitlementType.Purchase,
      deleted: false,
      consumed: false,
      starts_at: subscription ? new Date(now).toISOString() : null,
      ends_at: subscription ? new Date(now + SUBSCRIPTION_PERIOD_MS).toISOString() : null,
    };
    await this.create(entitlement);
    return toWireEntitlement(entitlement);
  }

  private async find(applicationId: string, entitlementId: string): Promise<StoredEntitlement> {
    const entitlement = isSnowflake(entitlementId)
      ? await this.deps.entitlements.getEntitlement(applicationId, entitlementId)
      : null;
    if (!entitlement) throw apiError('UnknownEntitlement');
    return entitlement;
  }

  private async sku(applicationId: string, skuId: string): Promise<StoredSku> {
    const sku = (await this.deps.entitlements.listSkus(applicationId)).find((candidate) => candidate.id === skuId);
    if (!sku) throw apiError('UnknownSku');
    return sku;
  }

  /** A test entitlement's owner must exist: a world user, or a guild. */
  private async checkOwner(ownerType: EntitlementOwnerType, ownerId: string): Promise<void> {
    if (ownerType === EntitlementOwnerType.User) {
      if (!(await this.deps.world.getUser(ownerId))) throw apiError('UnknownUser');
    } else if (!(await this.deps.members.getGuildWithMembers(ownerId, []))) {
      throw apiError('UnknownGuild');
    }
  }

  private async create(entitlement: StoredEntitlement): Promise<void> {
    const created = await this.deps.entitlements.createEntitlement(entitlement, ENTITLEMENTS_PER_APPLICATION_MAX);
    if (created === 'full') {
      throw invalidFormBody([
        issue(
          ['sku_id'],
          ENTITLEMENTS_MAX,
          `Maximum number of entitlements reached (${ENTITLEMENTS_PER_APPLICATION_MAX}).`,
        ),
      ]);
    }
    this.tell('ENTITLEMENT_CREATE', entitlement);
  }

  private async update(entitlement: StoredEntitlement, t: 'ENTITLEMENT_UPDATE' | 'ENTITLEMENT_DELETE'): Promise<void> {
    if (!(await this.deps.entitlements.updateEntitlement(entitlement))) throw apiError('UnknownEntitlement');
    this.tell(t, entitlement);
  }

  private tell(t: 'ENTITLEMENT_CREATE' | 'ENTITLEMENT_UPDATE' | 'ENTITLEMENT_DELETE', entitlement: StoredEntitlement) {
    this.deps.bus.publish('APPLICATION_DISPATCH', {
      applicationId: entitlement.application_id,
      guildId: entitlement.guild_id,
      t,
      d: toWireEntitlement(entitlement),
    });
  }
}

/** A sandbox subscription's period: 30 days. */
const SUBSCRIPTION_PERIOD_MS = 30 * 24 * 60 * 60 * 1000;

/** The path's application must be the caller's (v10: 20012 for another's, which learns nothing). */
function ownApplication(applicationId: string, pathApplicationId: string): void {
  if (applicationId !== pathApplicationId) throw apiError('NotAuthorizedForApplication');
}
