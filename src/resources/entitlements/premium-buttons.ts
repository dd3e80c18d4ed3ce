/**
 * Premium buttons (style 6) name a SKU of the message's own application: a reply, a follow-up, a
 * channel message or an edit of any of them whose premium button names another app's SKU, or
 * none, is refused (50035 at its `sku_id`) before anything is written. Read only when the message
 * has a premium button.
 */
import { invalidFormBody } from '../../core/io/errors.js';
import type { IssuePath } from '../../core/io/issue.js';
import type { AttachedFiles } from '../attachments/service.js';
import type { StoredMessage } from '../messages/rules/messages.js';
import { premiumButtonIssues, premiumButtonSkuIds } from './rules.js';
import type { EntitlementStore } from './store.js';

/** The application a message is sent for: its interaction's, else its bot author's; null for none. */
function applicationOf(message: StoredMessage): string | null {
  if (message.application_id !== undefined) return message.application_id;
  return message.author.kind === 'app' ? message.author.id : null;
}

/**
 * Refuses a message whose premium buttons name a SKU its application lacks (its components are at
 * `path` in the body), removing the files this request stored for it.
 */
export async function checkPremiumButtons(
  skus: Pick<EntitlementStore, 'listSkus'>,
  message: StoredMessage,
  path: IssuePath,
  attached: AttachedFiles | null,
): Promise<void> {
  if (premiumButtonSkuIds(message.components).length === 0) return;
  const applicationId = applicationOf(message);
  const own = applicationId === null ? [] : await skus.listSkus(applicationId);
  const issues = premiumButtonIssues(message.components, new Set(own.map((sku) => sku.id)), path);
  if (issues.length === 0) return;
  await attached?.discard();
  throw invalidFormBody(issues);
}
