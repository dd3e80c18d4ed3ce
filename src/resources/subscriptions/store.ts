/**
 * The subscriptions store (`Store.subscriptions`): an application's subscriptions, every query
 * keyed by the application id, each written together with the entitlement it grants (the
 * entitlements table) in one transaction. Ids are snowflakes of equal length within an
 * application's rows, so pages order by (length, id) as the numbers they are.
 */
import { storedDocument } from '../../store/rows.js';
import type { StoredEntitlement } from '../entitlements/rules.js';
import type { StoredSubscription } from './rules.js';

/** What a create came to: written, or one of the application's bounds reached (nothing written). */
export type SubscriptionCreation = 'created' | 'subscriptions-full' | 'entitlements-full';

/** The bounds a create is held to. */
export interface SubscriptionBounds {
  subscriptions: number;
  entitlements: number;
}

/** One page of a user's subscriptions to a SKU: after `after` ascending, else before `before` descending. */
export interface SubscriptionPage {
  skuId: string;
  userId: string;
  before: string | undefined;
  after: string | undefined;
  limit: number;
}

export interface SubscriptionStore {
  /**
   * Writes a new subscription and the entitlement it grants, in one transaction, unless the
   * application holds its bound of either already.
   */
  createSubscription(
    subscription: StoredSubscription,
    entitlement: StoredEntitlement,
    bounds: SubscriptionBounds,
  ): Promise<SubscriptionCreation>;
  getSubscription(applicationId: string, id: string): Promise<StoredSubscription | null>;
  /** A page of the user's subscriptions to the SKU: ids ascending after `after`, else descending. */
  listSubscriptions(applicationId: string, page: SubscriptionPage): Promise<StoredSubscription[]>;
  /** Every subscription of the user to the application's SKUs, ids descending. */
  listUserSubscriptions(applicationId: string, userId: string): Promise<StoredSubscription[]>;
  /**
   * Rewrites a subscription and, when given, its entitlement, in one transaction; false (nothing
   * written) when the subscription is not there.
   */
  updateSubscription(subscription: StoredSubscription, entitlement: StoredEntitlement | null): Promise<boolean>;
  /**
   * Removes a subscription and rewrites its entitlement (deleted), in one transaction; false
   * (nothing written) when the subscription is not there.
   */
  deleteSubscription(subscription: StoredSubscription, entitlement: StoredEntitlement | null): Promise<boolean>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** The monetization sandbox's subscriptions, by application. */
    readonly subscriptions: SubscriptionStore;
  }
}

/** The subscription a row's document holds. */
export function subscriptionOfDoc(doc: string): StoredSubscription {
  return storedDocument<StoredSubscription>(doc);
}
