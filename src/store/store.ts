/**
 * The storage a slashd process runs on: focused stores over one database, opened and closed
 * together. SQLite and PostgreSQL (src/store/postgres/) implement them; each speaks only in
 * domain shapes, keys every application-owned row by application id, and makes every multi-row
 * change one transaction. Any implementation must pass the contract suite in test/store-contract/.
 */
import type { AttachmentStore } from './attachment-store.js';
import type { AuditLogStore } from './audit-log-store.js';
import type { CommandStore } from './command-store.js';
import type { InteractionStore } from './interaction-store.js';
import type { NodeLeaseStore } from './node-lease-store.js';
import type { ReactionStore } from './reaction-store.js';
import type { SnapshotStore } from './snapshot-store.js';
import type { WorldStore } from './world-store.js';

export type { ApplicationKeys, IssuedToken, StoredApplication, WorldStore } from './world-store.js';
export { DuplicateTokenError } from './world-store.js';
export type {
  AuthorizationGrant,
  OAuth2GrantStore,
  RedeemedCode,
  RedeemedRefreshToken,
  RefreshGrant,
  SigningKeyRecord,
  UserAuthorization,
} from './oauth2-grants.js';
export type {
  CommandMutation,
  CommandPlanner,
  CommandStore,
  ListRenderer,
  PermissionsPlanner,
  PermissionsState,
  ScopeState,
} from './command-store.js';
export type {
  ActivityInstance,
  InteractionStatus,
  InteractionStore,
  MessageRange,
  Pin,
  PinOutcome,
  TranscriptEntry,
} from './interaction-store.js';
export type { NodeLeaseRequest, NodeLeaseStore } from './node-lease-store.js';
export type { AttachmentFile, AttachmentOwner, AttachmentStore, StoredAttachmentFile } from './attachment-store.js';
export type { ReactionCount, ReactionOutcome, ReactionStore } from './reaction-store.js';
export type { SnapshotStore } from './snapshot-store.js';
export type { AuditLogStore } from './audit-log-store.js';

export interface Store {
  readonly world: WorldStore;
  readonly commands: CommandStore;
  readonly interactions: InteractionStore;
  readonly reactions: ReactionStore;
  readonly leases: NodeLeaseStore;
  /** The bytes of message attachments. */
  readonly attachments: AttachmentStore;
  /** Snapshots of the whole state, for tests (restore, reset). */
  readonly snapshots: SnapshotStore;
  /** Guilds' audit logs (entries of actions written through `world` are written in their transactions). */
  readonly auditLog: AuditLogStore;
  /** The cheapest query the store can answer; rejects when the store cannot serve (readiness). */
  ping(): Promise<void>;
  /** Closes the database; a second call does nothing. */
  close(): Promise<void>;
}
