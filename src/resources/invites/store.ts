/**
 * A guild's invites, one row each by code (`Store.invites`): created and deleted with their audit
 * entries, read only while live (an expired or used-up invite is gone: reads never return it),
 * and accepted in one transaction with the member the use adds.
 */
import type { AuditEntry } from '../audit-log/rules.js';
import type { Member } from '../../core/world/types.js';
import type { StoredInvite } from './rules.js';
import { storedDocument } from '../../store/rows.js';

/** What creating an invite came to: made, its code taken already, or the guild at its bound. */
export type InviteCreation = 'created' | 'code-taken' | 'full';

/** What accepting an invite came to. */
export type InviteAcceptance =
  /** No live invite has the code (never was, deleted, expired, used up), or its guild is gone. */
  | { kind: 'unknown' }
  /** The user is banned from the invite's guild: nothing written. */
  | { kind: 'banned'; invite: StoredInvite }
  /** The user is a member already: no use counted. */
  | { kind: 'member'; invite: StoredInvite }
  /** The member added and the use counted; `usedUp`: that was its last use, and the invite was deleted. */
  | { kind: 'joined'; invite: StoredInvite; usedUp: boolean };

/** What adding a member came to (nothing is written but for 'added'). */
export type MemberAddition = 'added' | 'member' | 'banned' | 'no-guild';

export interface InviteStore {
  /**
   * Writes the invite with its audit entry, in one transaction that first deletes the guild's
   * expired invites: 'full' (nothing written) when the guild holds `maxPerGuild` live ones.
   */
  createInvite(invite: StoredInvite, nowMs: number, maxPerGuild: number, audit?: AuditEntry): Promise<InviteCreation>;
  /** The live invite of this code at `nowMs`, or null. */
  getInvite(code: string, nowMs: number): Promise<StoredInvite | null>;
  /** The channel's live invites, oldest first (then by code). */
  listChannelInvites(channelId: string, nowMs: number): Promise<StoredInvite[]>;
  /** The guild's live invites, oldest first (then by code). */
  listGuildInvites(guildId: string, nowMs: number): Promise<StoredInvite[]>;
  /** Deletes the invite with its audit entry; null (nothing written) when there is no such invite. */
  deleteInvite(code: string, audit?: AuditEntry): Promise<StoredInvite | null>;
  /**
   * Accepts the live invite for `member`'s user at `nowMs`, in one transaction: the member added
   * to the invite's guild (last in its order), the use counted, the invite deleted when that was
   * its last use.
   */
  acceptInvite(code: string, member: Member, nowMs: number): Promise<InviteAcceptance>;
  /**
   * Adds the member to the guild (last in its order) unless the user is a member already or
   * banned there, in one transaction: a member already there is never rewritten.
   */
  addMember(guildId: string, member: Member): Promise<MemberAddition>;
  /**
   * Removes these members of the guild (a prune), with its audit entry, in one transaction: the
   * user ids removed (those not members are skipped).
   */
  removeMembers(guildId: string, userIds: readonly string[], audit?: AuditEntry): Promise<string[]>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** Guild invites, by code; deleted with their channel. */
    readonly invites: InviteStore;
  }
}

/** An invite row's columns (both dialects). */
export interface InviteRow {
  doc: string;
  uses: number | string;
}

/** The SQL condition of a live row at the time bound to `param` (not expired, not used up). */
export function LIVE(param: string): string {
  return `(expires_at IS NULL OR expires_at > ${param}) AND (max_uses = 0 OR uses < max_uses)`;
}

/** The invite a row holds, its use count the column's. */
export function inviteOfRow(row: InviteRow): StoredInvite {
  return { ...storedDocument<StoredInvite>(row.doc), uses: Number(row.uses) };
}
