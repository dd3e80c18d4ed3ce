/**
 * The storage a slashd process runs on: focused stores over one database, opened and closed
 * together. SQLite and PostgreSQL (src/store/postgres/) implement them; each speaks only in
 * domain shapes, keys every application-owned row by application id, and makes every multi-row
 * change one transaction. Any implementation must pass the contract suite in test/store-contract/.
 */

export type { ApplicationKeys, IssuedToken, StoredApplication, WorldStore } from '../resources/world/store.js';
export { DuplicateTokenError } from '../resources/world/store.js';
export type {
  AuthorizationGrant,
  OAuth2GrantStore,
  RedeemedCode,
  RedeemedRefreshToken,
  RefreshGrant,
  SigningKeyRecord,
  UserAuthorization,
} from '../resources/oauth2/store.js';
export type {
  CommandMutation,
  CommandPlanner,
  CommandStore,
  ListRenderer,
  PermissionsPlanner,
  PermissionsState,
  ScopeState,
} from '../resources/commands/store.js';
export type {
  ActivityInstance,
  InteractionStatus,
  InteractionStore,
  MessageRange,
  Pin,
  PinOutcome,
  TranscriptEntry,
} from '../resources/interactions/store.js';
export type { NodeLeaseRequest, NodeLeaseStore } from '../resources/node-leases/store.js';
export type {
  AttachmentFile,
  AttachmentOwner,
  AttachmentStore,
  StoredAttachmentFile,
} from '../resources/attachments/store.js';
export type { ReactionCount, ReactionOutcome, ReactionStore } from '../resources/reactions/store.js';
export type { SnapshotStore } from '../resources/snapshots/store.js';
export type { AuditLogStore } from '../resources/audit-log/store.js';
export type { GuildMemberStore } from '../resources/members/store.js';
export type { GuildStructureStore } from '../resources/guild-structure/store.js';
export type { ThreadStore } from '../resources/threads/store.js';
export type { DmChannel, DmChannelStore } from '../resources/dms/store.js';

/**
 * Every resource's own stores by name (`store.reactions`, `store.threads`): empty here on purpose.
 * Each resource declares its entry from its `store.ts` (`declare module '../../store/store.js'`)
 * and builds both dialects from its `index.ts` (`stores` of its `Resource`), so a new resource's
 * store edits no file here.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface ResourceStores {}

export interface Store extends ResourceStores {
  /** The cheapest query the store can answer; rejects when the store cannot serve (readiness). */
  ping(): Promise<void>;
  /**
   * Settles once every write made so far is durable (rejects if they were lost); undefined when
   * nothing waits. A store whose writes are durable when they return never has anything waiting.
   */
  durable?(): Promise<void> | undefined;
  /** Closes the database; a second call does nothing. */
  close(): Promise<void>;
}
