/**
 * The console's Store data (`GET /console/api/store`): each application with SKUs, and what the
 * signed-in user holds of them. Read by the Store screen and by premium buttons (their label is
 * their SKU's name, their click a sandbox purchase).
 */
import type { Api } from './api';
import { useRead } from './hooks';
import type { Json } from './types';

export interface Shelf {
  application: { id: string; name: string };
  skus: Json[];
  entitlements: Json[];
  subscriptions: Json[];
}

/** v10's SKU types as the client words them. */
export const SKU_TYPE_LABEL: Record<number, string> = {
  2: 'One-time purchase',
  3: 'Consumable',
  5: 'Subscription',
  6: 'Subscription group',
};

/** v10's subscription statuses (SubscriptionStatus). */
export const SUBSCRIPTION_STATUS_LABEL: Record<number, string> = { 0: 'Active', 1: 'Inactive', 2: 'Ending' };

/** The shelves, read while `wanted` (the chat reads them only once a message has a premium button). */
export function useShelves(api: Api, wanted = true) {
  return useRead<Shelf[]>(wanted ? async () => (await api.consoleGet('/store')) as Shelf[] : null, [api, wanted]);
}

/** Whether a message's components hold a premium button (style 6), rows and layouts included. */
export function hasPremiumButton(components: unknown): boolean {
  if (!Array.isArray(components)) return false;
  return components.some((c: Json) =>
    c?.type === 2 && c.style === 6
      ? true
      : hasPremiumButton(c?.components) || hasPremiumButton(c?.accessory ? [c.accessory] : []),
  );
}

/** The SKU of an application on the shelves; null when the console does not know it. */
export function skuOf(shelves: Shelf[] | null, applicationId: string, skuId: string): Json {
  return shelves?.find((s) => s.application.id === applicationId)?.skus.find((sku) => sku.id === skuId) ?? null;
}

/** A sandbox purchase of the SKU as the signed-in user: the entitlement (and subscription) granted. */
export function buy(api: Api, applicationId: string, skuId: string): Promise<Json> {
  return api.consolePost(`/applications/${applicationId}/purchases`, { sku_id: skuId });
}
