/**
 * The storage a slashd process runs on: focused stores over one database, opened and closed
 * together. SQLite and PostgreSQL (src/store/postgres/) implement them; each speaks only in
 * domain shapes, keys every application-owned row by application id, and makes every multi-row
 * change one transaction. Any implementation must pass the contract suite in test/store-contract/.
 */
import type { AttachmentStore } from '../resources/attachments/store.js';
import type { AuditLogStore } from '../resources/audit-log/store.js';
import type { CommandStore } from '../resources/commands/store.js';
import type { DmChannelStore } from '../resources/dms/store.js';
import type { GuildStructureStore } from '../resources/guild-structure/store.js';
import type { InteractionStore } from '../resources/interactions/store.js';
import type { GuildMemberStore } from '../resources/members/store.js';
import type { NodeLeaseStore } from '../resources/node-leases/store.js';
import type { OAuth2GrantStore } from '../resources/oauth2/store.js';
import type { ReactionStore } from '../resources/reactions/store.js';
import type { SnapshotStore } from '../resources/snapshots/store.js';
import type { ThreadStore } from '../resources/threads/store.js';
import type { WorldStore } from '../resources/world/store.js';

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

export interface Store {
  /** Applications, users, guilds and OAuth2 tokens, and the world document as a whole. */
  readonly world: WorldStore;
  /** Authorization codes, refresh tokens, user authorizations, the signing key. */
  readonly oauth2Grants: OAuth2GrantStore;
  /** A guild's members and bans, each a row of its own; the guild read with the members named. */
  readonly members: GuildMemberStore;
  /** A guild's roles and channels, changed apart from its members. */
  readonly guildStructure: GuildStructureStore;
  /** Threads created through the API and their members. */
  readonly threads: ThreadStore;
  /** DM channels between an app's bot and a user. */
  readonly dms: DmChannelStore;
  readonly commands: CommandStore;
  readonly interactions: InteractionStore;
  readonly reactions: ReactionStore;
  readonly leases: NodeLeaseStore;
  /** The bytes of message attachments. */
  readonly attachments: AttachmentStore;
  /** Snapshots of the whole state, for tests (restore, reset). */
  readonly snapshots: SnapshotStore;
  /** Guilds' audit logs (entries of actions written through `members` and `guildStructure` are written in their transactions). */
  readonly auditLog: AuditLogStore;
  /** The cheapest query the store can answer; rejects when the store cannot serve (readiness). */
  ping(): Promise<void>;
  /** Closes the database; a second call does nothing. */
  close(): Promise<void>;
}
