/** The SQLite InviteStore: the invites table (a deleted channel's go with it: `channelOwnedTables`). */
import type { Member } from '../../core/world/types.js';
import { insertAuditEntry } from '../audit-log/store.sqlite.js';
import type { AuditEntry } from '../audit-log/rules.js';
import type { SqliteConnection } from '../../store/sqlite/connection.js';
import { usedUp, type StoredInvite } from './rules.js';
import {
  inviteOfRow,
  LIVE,
  type InviteAcceptance,
  type InviteCreation,
  type InviteRow,
  type InviteStore,
  type MemberAddition,
} from './store.js';

export class SqliteInviteStore implements InviteStore {
  constructor(private readonly conn: SqliteConnection) {}

  async createInvite(
    invite: StoredInvite,
    nowMs: number,
    maxPerGuild: number,
    audit?: AuditEntry,
  ): Promise<InviteCreation> {
    return this.conn.transaction(() => {
      this.conn
        .sql('DELETE FROM invites WHERE guild_id = ? AND expires_at IS NOT NULL AND expires_at <= ?')
        .run(invite.guild_id, nowMs);
      if (this.conn.sql('SELECT 1 FROM invites WHERE code = ?').get(invite.code)) return 'code-taken';
      const { n } = this.conn.sql('SELECT count(*) AS n FROM invites WHERE guild_id = ?').get(invite.guild_id) as {
        n: number;
      };
      if (n >= maxPerGuild) return 'full';
      this.conn
        .sql(
          `INSERT INTO invites (code, guild_id, channel_id, created_at, expires_at, uses, max_uses, doc)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          invite.code,
          invite.guild_id,
          invite.channel_id,
          nowMs,
          invite.expires_at_ms,
          invite.uses,
          invite.max_uses,
          JSON.stringify(invite),
        );
      if (audit) insertAuditEntry(this.conn, audit);
      return 'created';
    });
  }

  async getInvite(code: string, nowMs: number): Promise<StoredInvite | null> {
    const row = this.conn.sql(`SELECT doc, uses FROM invites WHERE code = ? AND ${LIVE('?')}`).get(code, nowMs) as
      InviteRow | undefined;
    return row ? inviteOfRow(row) : null;
  }

  private list(column: 'channel_id' | 'guild_id', id: string, nowMs: number): StoredInvite[] {
    const rows = this.conn
      .sql(`SELECT doc, uses FROM invites WHERE ${column} = ? AND ${LIVE('?')} ORDER BY created_at, code`)
      .all(id, nowMs) as InviteRow[];
    return rows.map(inviteOfRow);
  }

  async listChannelInvites(channelId: string, nowMs: number): Promise<StoredInvite[]> {
    return this.list('channel_id', channelId, nowMs);
  }

  async listGuildInvites(guildId: string, nowMs: number): Promise<StoredInvite[]> {
    return this.list('guild_id', guildId, nowMs);
  }

  async deleteInvite(code: string, audit?: AuditEntry): Promise<StoredInvite | null> {
    return this.conn.transaction(() => {
      const row = this.conn.sql('DELETE FROM invites WHERE code = ? RETURNING doc, uses').get(code) as
        InviteRow | undefined;
      if (!row) return null;
      if (audit) insertAuditEntry(this.conn, audit);
      return inviteOfRow(row);
    });
  }

  /** Inside the caller's transaction. */
  private insertMember(guildId: string, member: Member): MemberAddition {
    if (!this.conn.sql('SELECT 1 FROM guilds WHERE id = ?').get(guildId)) return 'no-guild';
    if (this.conn.sql('SELECT 1 FROM guild_bans WHERE guild_id = ? AND user_id = ?').get(guildId, member.user_id)) {
      return 'banned';
    }
    if (this.conn.sql('SELECT 1 FROM guild_members WHERE guild_id = ? AND user_id = ?').get(guildId, member.user_id)) {
      return 'member';
    }
    this.conn
      .sql(
        `INSERT INTO guild_members (guild_id, user_id, position, doc)
         VALUES (?, ?, (SELECT COALESCE(MAX(position) + 1, 0) FROM guild_members WHERE guild_id = ?), ?)`,
      )
      .run(guildId, member.user_id, guildId, JSON.stringify(member));
    this.conn.cached.forgetMember(guildId, member.user_id);
    return 'added';
  }

  async addMember(guildId: string, member: Member): Promise<MemberAddition> {
    return this.conn.transaction(() => this.insertMember(guildId, member));
  }

  async removeMembers(guildId: string, userIds: readonly string[], audit?: AuditEntry): Promise<string[]> {
    return this.conn.transaction(() => {
      const remove = this.conn.sql('DELETE FROM guild_members WHERE guild_id = ? AND user_id = ?');
      const removed = userIds.filter((userId) => remove.run(guildId, userId).changes > 0);
      for (const userId of removed) this.conn.cached.forgetMember(guildId, userId);
      if (audit) insertAuditEntry(this.conn, audit);
      return removed;
    });
  }

  async acceptInvite(code: string, member: Member, nowMs: number): Promise<InviteAcceptance> {
    return this.conn.transaction((): InviteAcceptance => {
      const row = this.conn.sql(`SELECT doc, uses FROM invites WHERE code = ? AND ${LIVE('?')}`).get(code, nowMs) as
        InviteRow | undefined;
      if (!row) return { kind: 'unknown' };
      const invite = inviteOfRow(row);
      const addition = this.insertMember(invite.guild_id, member);
      if (addition === 'no-guild') return { kind: 'unknown' };
      if (addition !== 'added') return { kind: addition, invite };
      const used = { ...invite, uses: invite.uses + 1 };
      const last = usedUp(used);
      if (last) this.conn.sql('DELETE FROM invites WHERE code = ?').run(code);
      else this.conn.sql('UPDATE invites SET uses = ? WHERE code = ?').run(used.uses, code);
      return { kind: 'joined', invite: used, usedUp: last };
    });
  }
}
