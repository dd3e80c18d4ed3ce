/**
 * Store: what each application sells (its SKUs) and what the signed-in user holds of it, as the
 * console's API tells it (`GET /console/api/store`): buy a SKU (a sandbox purchase: its
 * entitlement, or a subscription, at once), consume a consumable, cancel a subscription (it runs to
 * the end of its period). The app is told of each as v10 tells it (ENTITLEMENT_*, SUBSCRIPTION_*).
 */
import { useState } from 'preact/hooks';
import { ApiError, type Api } from '../api';
import type { ScreenProps } from '../screens';
import { buy, SKU_TYPE_LABEL, SUBSCRIPTION_STATUS_LABEL, useShelves, type Shelf } from '../shelves';
import type { Json } from '../types';
import './store.css';

/** v10's entitlement types the store shows: a purchase, a test one, a subscription's. */
const ENTITLEMENT_TYPE_LABEL: Record<number, string> = { 1: 'Purchase', 4: 'Test purchase', 8: 'Subscription' };
const CONSUMABLE = 3;
const SUBSCRIPTION = 5;
const ACTIVE = 0;
const DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };

function refusalText(error: unknown): string {
  return error instanceof ApiError || error instanceof Error ? error.message : String(error);
}

function ended(entitlement: Json): boolean {
  return typeof entitlement.ends_at === 'string' && Date.parse(entitlement.ends_at) <= Date.now();
}

function entitlementState(entitlement: Json): string {
  if (entitlement.consumed) return 'Consumed';
  return ended(entitlement) ? 'Ended' : 'Active';
}

/** Whether the user holds the SKU so that buying it again means nothing (not a consumable). */
function owned(shelf: Shelf, sku: Json): boolean {
  if (sku.type === CONSUMABLE) return false;
  return shelf.entitlements.some((e) => e.sku_id === sku.id && !e.consumed && !ended(e));
}

function ShelfView({
  shelf,
  api,
  act,
}: {
  shelf: Shelf;
  api: Api;
  act: (run: () => Promise<unknown>) => Promise<void>;
}) {
  const { id, name } = shelf.application;
  const skuName = (skuId: string) => (shelf.skus.find((s) => s.id === skuId)?.name as string | undefined) ?? skuId;
  const headingId = `shelf-${id}`;
  return (
    <section class="store-shelf" aria-labelledby={headingId}>
      <h2 id={headingId}>{name}</h2>
      <h3>For sale</h3>
      <ul class="store-skus" aria-label={`${name}: for sale`}>
        {shelf.skus.map((sku) => (
          <li key={sku.id} class="store-card">
            <span class="store-name">
              <span aria-hidden="true">◆ </span>
              {sku.name}
            </span>
            <span class="muted">{SKU_TYPE_LABEL[sku.type as number] ?? `Type ${sku.type as number}`}</span>
            <button
              type="button"
              class="button primary small"
              disabled={owned(shelf, sku)}
              aria-label={`Buy ${sku.name as string}`}
              onClick={() => void act(() => buy(api, id, sku.id as string))}
            >
              {owned(shelf, sku) ? 'Owned' : 'Buy'}
            </button>
          </li>
        ))}
      </ul>
      <h3>Your items</h3>
      {shelf.entitlements.length === 0 ? (
        <p class="muted">Nothing yet.</p>
      ) : (
        <ul class="store-items" aria-label={`${name}: your items`}>
          {shelf.entitlements.map((e) => {
            const consumable = shelf.skus.find((s) => s.id === e.sku_id)?.type === CONSUMABLE;
            return (
              <li key={e.id} class="store-card">
                <span class="store-name">{skuName(e.sku_id as string)}</span>
                <span class="muted">{ENTITLEMENT_TYPE_LABEL[e.type as number] ?? `Type ${e.type as number}`}</span>
                <span class={`store-state state-${entitlementState(e).toLowerCase()}`}>{entitlementState(e)}</span>
                {consumable && !e.consumed && (
                  <button
                    type="button"
                    class="button secondary small"
                    aria-label={`Consume ${skuName(e.sku_id as string)}`}
                    onClick={() =>
                      void act(() => api.consolePost(`/applications/${id}/entitlements/${e.id as string}/consume`, {}))
                    }
                  >
                    Consume
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {shelf.skus.some((s) => s.type === SUBSCRIPTION) && (
        <>
          <h3>Your subscriptions</h3>
          {shelf.subscriptions.length === 0 ? (
            <p class="muted">No subscription.</p>
          ) : (
            <ul class="store-items" aria-label={`${name}: your subscriptions`}>
              {shelf.subscriptions.map((s) => {
                const status = s.status as number;
                const end = new Date(s.current_period_end as string).toLocaleDateString(undefined, DATE);
                return (
                  <li key={s.id} class="store-card">
                    <span class="store-name">{(s.sku_ids as string[]).map(skuName).join(', ')}</span>
                    <span class={`store-state status-${status}`}>{SUBSCRIPTION_STATUS_LABEL[status] ?? status}</span>
                    <span class="muted">
                      {status === ACTIVE ? `Renews ${end}` : status === 2 ? `Ends ${end}` : `Ended ${end}`}
                    </span>
                    {status === ACTIVE && (
                      <button
                        type="button"
                        class="button danger small"
                        aria-label={`Cancel ${(s.sku_ids as string[]).map(skuName).join(', ')}`}
                        onClick={() =>
                          void act(() =>
                            api.consolePost(`/applications/${id}/subscriptions/${s.id as string}/cancel`, {}),
                          )
                        }
                      >
                        Cancel
                      </button>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

export function StoreScreen({ session }: ScreenProps) {
  const { api } = session;
  const shelves = useShelves(api);
  const [refused, setRefused] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const act = async (run: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await run();
      setRefused(null);
    } catch (error) {
      setRefused(refusalText(error));
    }
    setBusy(false);
    shelves.reload();
  };
  const list = shelves.data ?? [];
  return (
    <div class="store" aria-busy={busy}>
      <div class="store-body">
        <div class="store-head">
          <h1 class="store-title">Store</h1>
          <button type="button" class="button secondary small" onClick={shelves.reload}>
            Check again
          </button>
        </div>
        <p class="muted">Signed in as {session.user.username}. Purchases here are a sandbox's: nothing is charged.</p>
        {(refused ?? shelves.error) && (
          <p class="form-refusal" role="alert">
            {refused ?? shelves.error}
          </p>
        )}
        {shelves.data && list.length === 0 && <p class="muted">No application sells anything.</p>}
        {list.map((shelf) => (
          <ShelfView key={shelf.application.id} shelf={shelf} api={api} act={act} />
        ))}
      </div>
    </div>
  );
}
