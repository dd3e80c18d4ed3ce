/**
 * The sandbox purchase dialog a premium button opens: the SKU's name, kind and application, and
 * Buy (a purchase as the signed-in user: the entitlement, or the subscription, is granted at once;
 * no payment is asked in a sandbox) or Cancel.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { SKU_TYPE_LABEL } from '../shelves';
import type { Json } from '../types';

export function PurchaseDialog({
  sku,
  appName,
  purchase,
  close,
}: {
  sku: Json;
  appName: string;
  /** Null when bought, else why not. */
  purchase: () => Promise<string | null>;
  close: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  const send = async (event: Event) => {
    event.preventDefault();
    const refused = await purchase();
    if (refused) setError(refused);
    else setDone(true);
  };
  return (
    <dialog ref={dialog} class="modal purchase" aria-labelledby="purchase-title" onCancel={close}>
      <form method="dialog" onSubmit={(e) => void send(e)}>
        <p class="muted">{appName}</p>
        <h2 id="purchase-title">
          <span aria-hidden="true">◆ </span>
          {sku.name}
        </h2>
        <p>{SKU_TYPE_LABEL[sku.type as number] ?? `SKU type ${sku.type as number}`}</p>
        <p class="muted">A sandbox purchase: nothing is charged.</p>
        {error && (
          <p class="form-refusal" role="alert">
            {error}
          </p>
        )}
        {done && (
          <p class="purchase-done" role="status">
            Purchased. {appName} has been told.
          </p>
        )}
        <div class="form-actions">
          {!done && (
            <button type="submit" class="button primary">
              Buy
            </button>
          )}
          <button type="button" class="button secondary" onClick={close}>
            {done ? 'Close' : 'Cancel'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
