/**
 * The monetization sandbox's store (`Store.entitlements`): an application's SKUs (replaced as one
 * list) and its entitlements, every query keyed by the application id. Ids are snowflakes of equal
 * length within an application's rows, so pages order by (length, id) as the numbers they are.
 */
import { storedDocument } from '../../store/rows.js';
import type { StoredEntitlement, StoredSku } from './rules.js';

/** What a create came to: written, or the application at its bound (nothing written). */
export type EntitlementCreation = 'created' | 'full';

/** One page of an application's entitlements, by id: after `after` ascending, else before `before` descending. */
export interface EntitlementPage {
  before: string | undefined;
  after: string | undefined;
}

export interface EntitlementStore {
  /** The application's SKUs, in the order they were put. */
  listSkus(applicationId: string): Promise<StoredSku[]>;
  /** Replaces the application's SKUs by `skus`, in one transaction. */
  putSkus(applicationId: string, skus: readonly StoredSku[]): Promise<void>;
  /** Writes a new entitlement unless the application holds `max` already. */
  createEntitlement(entitlement: StoredEntitlement, max: number): Promise<EntitlementCreation>;
  getEntitlement(applicationId: string, id: string): Promise<StoredEntitlement | null>;
  /**
   * The application's entitlements of a page, ids ascending after `after`, else descending before
   * `before` (newest first with neither), every one of them: the caller filters.
   */
  listEntitlements(applicationId: string, page: EntitlementPage): Promise<StoredEntitlement[]>;
  /** The application's entitlements owned by these ids (users' or guilds'), ids descending. */
  listOwnedEntitlements(applicationId: string, ownerIds: readonly string[]): Promise<StoredEntitlement[]>;
  /** Rewrites an entitlement (consumed, deleted, ended); false when there is none. */
  updateEntitlement(entitlement: StoredEntitlement): Promise<boolean>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** The monetization sandbox: SKUs and entitlements, by application. */
    readonly entitlements: EntitlementStore;
  }
}

/** The id of the entitlement's owner: its user's, else its guild's. */
export function ownerIdOf(entitlement: StoredEntitlement): string {
  return entitlement.user_id ?? entitlement.guild_id ?? '';
}

/** The entitlement a row's document holds. */
export function entitlementOfDoc(doc: string): StoredEntitlement {
  return storedDocument<StoredEntitlement>(doc);
}

/** The SKU a row's document holds. */
export function skuOfDoc(doc: string): StoredSku {
  return storedDocument<StoredSku>(doc);
}
