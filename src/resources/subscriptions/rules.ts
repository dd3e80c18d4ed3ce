/**
 * The subscriptions of the monetization sandbox (docs/v10-behaviour.md#subscriptions): a user's
 * subscription to one of an application's subscription SKUs, its period and status, the entitlement
 * it grants, the query of `GET /skus/{id}/subscriptions`, its life cycle (bought, renewed, canceled,
 * ended, deleted) and its v10 wire object. Pure: the service reads and writes through the store.
 */
import { EntitlementType, SubscriptionStatus, type APISubscription } from 'discord-api-types/v10';
import { SUBSCRIPTION_NOT_ACTIVE } from '../../core/io/codes.js';
import { issue, type Issue } from '../../core/io/issue.js';
import { reportRequired } from '../../core/io/report.js';
import { fail, ok, type Result } from '../../core/io/result.js';
import { readIntegerParam, readSnowflakeParam } from '../../core/world/page-query.js';
import type { StoredEntitlement, StoredSku } from '../entitlements/rules.js';

/** The most subscriptions one application holds, ended ones included (every resource has a bound). */
export const SUBSCRIPTIONS_PER_APPLICATION_MAX = 10_000;
/** A subscriptions page holds at most this many (v10: limit 1-100). */
export const SUBSCRIPTIONS_PAGE_MAX = 100;
/** A page holds this many when `limit` is absent (v10's default: 50). */
export const SUBSCRIPTIONS_PAGE_DEFAULT = 50;
/** The console's Store shows at most this many applications' shelves (the first, by the world's order). */
export const STORE_SHELVES_MAX = 100;
/** A sandbox subscription's period: 30 days, as the entitlements' sandbox purchase has it. */
export const SUBSCRIPTION_PERIOD_MS = 30 * 24 * 60 * 60 * 1000;

export interface StoredSubscription {
  id: string;
  application_id: string;
  user_id: string;
  /** The SKUs subscribed to: one, the subscription SKU bought. */
  sku_ids: string[];
  /** The entitlements granted by it: one, renewed with each period. */
  entitlement_ids: string[];
  /** What it renews to: its SKUs while active, null once canceled. */
  renewal_sku_ids: string[] | null;
  current_period_start: string;
  current_period_end: string;
  status: SubscriptionStatus;
  canceled_at: string | null;
}

/** `GET /skus/{id}/subscriptions`'s query, read. */
export interface SubscriptionsQuery {
  userId: string;
  before: string | undefined;
  after: string | undefined;
  limit: number;
}

/**
 * The list's query: `user_id` is required of a bot (v10: "required except for OAuth queries"),
 * cursors are snowflakes, `limit` 1-100; a bad value is 50035 at its parameter's name.
 */
export function readSubscriptionsQuery(query: Readonly<Record<string, unknown>>): Result<SubscriptionsQuery> {
  const issues: Issue[] = [];
  const userId = readSnowflakeParam(query.user_id, 'user_id', issues);
  if (userId === undefined && (query.user_id === undefined || query.user_id === ''))
    reportRequired(issues, ['user_id']);
  const before = readSnowflakeParam(query.before, 'before', issues);
  const after = readSnowflakeParam(query.after, 'after', issues);
  const limit = readIntegerParam(
    query.limit,
    { name: 'limit', min: 1, max: SUBSCRIPTIONS_PAGE_MAX, fallback: SUBSCRIPTIONS_PAGE_DEFAULT },
    issues,
  );
  if (issues.length > 0 || userId === undefined) return fail(issues);
  return ok({ userId, before, after, limit });
}

/** `GET /skus/{id}/subscriptions/{sid}`'s optional `user_id`: a snowflake when given. */
export function readSubscriptionUserParam(query: Readonly<Record<string, unknown>>): Result<string | undefined> {
  const issues: Issue[] = [];
  const userId = readSnowflakeParam(query.user_id, 'user_id', issues);
  return issues.length > 0 ? fail(issues) : ok(userId);
}

/** A new subscription and its entitlement (type 8, ApplicationSubscription), for one period from `nowMs`. */
export function newSubscription(
  ids: { subscription: string; entitlement: string },
  sku: StoredSku,
  userId: string,
  nowMs: number,
): { subscription: StoredSubscription; entitlement: StoredEntitlement } {
  const start = new Date(nowMs).toISOString();
  const end = new Date(nowMs + SUBSCRIPTION_PERIOD_MS).toISOString();
  return {
    subscription: {
      id: ids.subscription,
      application_id: sku.application_id,
      user_id: userId,
      sku_ids: [sku.id],
      entitlement_ids: [ids.entitlement],
      renewal_sku_ids: [sku.id],
      current_period_start: start,
      current_period_end: end,
      status: SubscriptionStatus.Active,
      canceled_at: null,
    },
    entitlement: {
      id: ids.entitlement,
      application_id: sku.application_id,
      sku_id: sku.id,
      user_id: userId,
      guild_id: null,
      type: EntitlementType.ApplicationSubscription,
      deleted: false,
      consumed: false,
      starts_at: start,
      ends_at: end,
    },
  };
}

/** Whether the subscription still grants its SKU (active, or ending within its period). */
export function subscriptionLive(subscription: StoredSubscription): boolean {
  return subscription.status !== SubscriptionStatus.Inactive;
}

/** A cancel: an active subscription ends with its period and renews to nothing; else no change (null). */
export function canceled(subscription: StoredSubscription, nowMs: number): StoredSubscription | null {
  if (subscription.status !== SubscriptionStatus.Active) return null;
  return {
    ...subscription,
    status: SubscriptionStatus.Ending,
    canceled_at: new Date(nowMs).toISOString(),
    renewal_sku_ids: null,
  };
}

/**
 * The end of the current period, now (the admin API's renewal, which no clock waits for): an
 * active subscription starts its next period and its entitlement runs to its end; an ending one
 * becomes inactive and its entitlement ends now. An inactive one has no period to end (50035).
 */
export function periodEnded(
  subscription: StoredSubscription,
  entitlement: StoredEntitlement | null,
  nowMs: number,
): Result<{ subscription: StoredSubscription; entitlement: StoredEntitlement | null }> {
  const now = new Date(nowMs).toISOString();
  if (subscription.status === SubscriptionStatus.Active) {
    const end = new Date(nowMs + SUBSCRIPTION_PERIOD_MS).toISOString();
    return ok({
      subscription: { ...subscription, current_period_start: now, current_period_end: end },
      entitlement: entitlement ? { ...entitlement, ends_at: end } : null,
    });
  }
  if (subscription.status === SubscriptionStatus.Ending) {
    return ok({
      subscription: { ...subscription, status: SubscriptionStatus.Inactive, current_period_end: now },
      entitlement: entitlement ? { ...entitlement, ends_at: now } : null,
    });
  }
  return fail(notActive());
}

/** The refusal of a renewal of an inactive subscription: 50035 at `subscription_id`. */
export function notActive(): Issue[] {
  return [issue(['subscription_id'], SUBSCRIPTION_NOT_ACTIVE, 'The subscription is inactive.')];
}

/** v10's subscription object (`country` only for private OAuth scopes: never here). */
export function toWireSubscription(subscription: StoredSubscription): APISubscription {
  return {
    id: subscription.id,
    user_id: subscription.user_id,
    sku_ids: [...subscription.sku_ids],
    entitlement_ids: [...subscription.entitlement_ids],
    renewal_sku_ids: subscription.renewal_sku_ids === null ? null : [...subscription.renewal_sku_ids],
    current_period_start: subscription.current_period_start,
    current_period_end: subscription.current_period_end,
    status: subscription.status,
    canceled_at: subscription.canceled_at,
  };
}
