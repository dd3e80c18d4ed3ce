/**
 * The PostgreSQL InviteStore: the invites table (a deleted channel's go with it:
 * `channelOwnedTables`). A guild's creates run one at a time under its advisory lock, so two
 * cannot both take its last place; an accept holds the invite's row, so two cannot both take its
 * last use.
 */
import type { Member } from '../../core/world/types.js';
import { insertAuditEntry } from '../audit-log/store.postgres.js';
import type { AuditEntry } from '../audit-log/rules.js';
import type { PostgresClient, PostgresConnection } from '../../store/postgres/connection.js';
import { lockMember } from '../members/store.postgres.js';
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

/** Inside the caller's transaction. */
async function insertMember(client: PostgresClient, guildId: string, member: Member): Promise<MemberAddition> {
  // Held shared, as every member write holds it: a guild being deleted waits, or this waits for it.
  const guild = await client.query('SELECT 1 FROM guilds WHERE id = $1 FOR SHARE', [guildId]);
  if (!guild.rowCount) return 'no-guild';
  await lockMember(client, guildId, member.user_id);
  const key = [guildId, member.user_id];
  const banned = await client.query('SELECT 1 FROM guild_bans WHERE guild_id = $1 AND user_id = $2', key);
  if (banned.rowCount) return 'banned';
  const already = await client.query('SELECT 1 FROM guild_members WHERE guild_id = $1 AND user_id = $2', key);
  if (already.rowCount) return 'member';
  await client.query(
    `INSERT INTO guild_members (guild_id, user_id, position, doc)
     VALUES ($1, $2, (SELECT COALESCE(MAX(position) + 1, 0) FROM guild_members WHERE guild_id = $1), $3)`,
    [...key, JSON.stringify(member)],
  );
  return 'added';
}

export class PostgresInviteStore implements InviteStore {
  constructor(private readonly conn: PostgresConnection) {}

  async createInvite(
    invite: StoredInvite,
    nowMs: number,
    maxPerGuild: number,
    audit?: AuditEntry,
  ): Promise<InviteCreation> {
    return this.conn.transaction(async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('slashd invites/' || $1, 0))", [
        invite.guild_id,
      ]);
      await client.query('DELETE FROM invites WHERE guild_id = $1 AND expires_at IS NOT NULL AND expires_at <= $2', [
        invite.guild_id,
        nowMs,
      ]);
      const count = await client.query<{ n: string }>('SELECT count(*) AS n FROM invites WHERE guild_id = $1', [
        invite.guild_id,
      ]);
      if (Number(count.rows[0]?.n ?? 0) >= maxPerGuild) return 'full';
      const inserted = await client.query(
        `INSERT INTO invites (code, guild_id, channel_id, created_at, expires_at, uses, max_uses, doc)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (code) DO NOTHING`,
        [
          invite.code,
          invite.guild_id,
          invite.channel_id,
          nowMs,
          invite.expires_at_ms,
          invite.uses,
          invite.max_uses,
          JSON.stringify(invite),
        ],
      );
      if (!inserted.rowCount) return 'code-taken';
      if (audit) await insertAuditEntry(client, audit);
      return 'created';
    });
  }

  async getInvite(code: string, nowMs: number): Promise<StoredInvite | null> {
    const result = await this.conn.pool.query<InviteRow>(
      `SELECT doc, uses FROM invites WHERE code = $1 AND ${LIVE('$2')}`,
      [code, nowMs],
    );
    return result.rows[0] ? inviteOfRow(result.rows[0]) : null;
  }

  private async list(column: 'channel_id' | 'guild_id', id: string, nowMs: number): Promise<StoredInvite[]> {
    const result = await this.conn.pool.query<InviteRow>(
      `SELECT doc, uses FROM invites WHERE ${column} = $1 AND ${LIVE('$2')} ORDER BY created_at, code`,
      [id, nowMs],
    );
    return result.rows.map(inviteOfRow);
  }

  async listChannelInvites(channelId: string, nowMs: number): Promise<StoredInvite[]> {
    return this.list('channel_id', channelId, nowMs);
  }

  async listGuildInvites(guildId: string, nowMs: number): Promise<StoredInvite[]> {
    return this.list('guild_id', guildId, nowMs);
  }

  async deleteInvite(code: string, audit?: AuditEntry): Promise<StoredInvite | null> {
    return this.conn.transaction(async (client) => {
      const result = await client.query<InviteRow>('DELETE FROM invites WHERE code = $1 RETURNING doc, uses', [code]);
      const row = result.rows[0];
      if (!row) return null;
      if (audit) await insertAuditEntry(client, audit);
      return inviteOfRow(row);
    });
  }

  async addMember(guildId: string, member: Member): Promise<MemberAddition> {
    return this.conn.transaction((client) => insertMember(client, guildId, member));
  }

  async removeMembers(guildId: string, userIds: readonly string[], audit?: AuditEntry): Promise<string[]> {
    return this.conn.transaction(async (client) => {
      const result = await client.query<{ user_id: string }>(
        'DELETE FROM guild_members WHERE guild_id = $1 AND user_id = ANY($2::text[]) RETURNING user_id',
        [guildId, [...userIds]],
      );
      if (audit) await insertAuditEntry(client, audit);
      const removed = new Set(result.rows.map((row) => row.user_id));
      return userIds.filter((userId) => removed.has(userId));
    });
  }

  async acceptInvite(code: string, member: Member, nowMs: number): Promise<InviteAcceptance> {
    return this.conn.transaction(async (client): Promise<InviteAcceptance> => {
      const found = await client.query<InviteRow & { guild_id: string }>(
        `SELECT doc, uses, guild_id FROM invites WHERE code = $1 AND ${LIVE('$2')} FOR UPDATE`,
        [code, nowMs],
      );
      const row = found.rows[0];
      if (!row) return { kind: 'unknown' };
      const invite = inviteOfRow(row);
      const addition = await insertMember(client, invite.guild_id, member);
      if (addition === 'no-guild') return { kind: 'unknown' };
      if (addition !== 'added') return { kind: addition, invite };
      const used = { ...invite, uses: invite.uses + 1 };
      const last = usedUp(used);
      if (last) await client.query('DELETE FROM invites WHERE code = $1', [code]);
      else await client.query('UPDATE invites SET uses = $2 WHERE code = $1', [code, used.uses]);
      return { kind: 'joined', invite: used, usedUp: last };
    });
  }
}
