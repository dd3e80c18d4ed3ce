/** The PostgreSQL BotProfileStore: the bot_profiles table (rows deleted with their application). */
import type { PostgresClient, PostgresConnection } from '../../store/postgres/connection.js';
import { storedDocument } from '../../store/rows.js';
import type {
  BotImage,
  BotImageKind,
  BotProfilePlanner,
  BotProfileStore,
  BotProfileWrite,
  StoredBotProfile,
} from './store.js';

interface ProfileRow {
  username: string | null;
  avatar: string | null;
  banner: string | null;
  username_changes: string;
}

const PROFILE_COLUMNS = 'username, avatar, banner, username_changes';

function profileFromRow(row: ProfileRow): StoredBotProfile {
  return { ...row, username_changes: storedDocument<number[]>(row.username_changes) };
}

export class PostgresBotProfileStore implements BotProfileStore {
  constructor(private readonly conn: PostgresConnection) {}

  async getBotProfile(applicationId: string): Promise<StoredBotProfile | null> {
    const found = await this.conn.pool.query<ProfileRow>(
      `SELECT ${PROFILE_COLUMNS} FROM bot_profiles WHERE application_id = $1`,
      [applicationId],
    );
    return found.rows[0] ? profileFromRow(found.rows[0]) : null;
  }

  async mutateBotProfile<T>(applicationId: string, plan: BotProfilePlanner<T>): Promise<T> {
    return this.conn.transaction(async (client) => {
      // The application's lock, shared: its deletion waits for this edit, or this edit for it.
      await this.conn.lockApplication(client, applicationId, 'shared');
      await this.conn.lockScope(client, applicationId, 'bot-profile');
      const found = await client.query<ProfileRow>(
        `SELECT ${PROFILE_COLUMNS} FROM bot_profiles WHERE application_id = $1`,
        [applicationId],
      );
      const { write, outcome } = plan(found.rows[0] ? profileFromRow(found.rows[0]) : null);
      if (write) await this.write(client, applicationId, write);
      return outcome;
    });
  }

  private async write(client: PostgresClient, applicationId: string, { profile, avatar, banner }: BotProfileWrite) {
    await client.query(
      `INSERT INTO bot_profiles (application_id, ${PROFILE_COLUMNS}) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (application_id) DO UPDATE SET username = excluded.username, avatar = excluded.avatar,
         banner = excluded.banner, username_changes = excluded.username_changes`,
      [applicationId, profile.username, profile.avatar, profile.banner, JSON.stringify(profile.username_changes)],
    );
    for (const [kind, image] of [
      ['avatar', avatar],
      ['banner', banner],
    ] as const) {
      if (image === undefined) continue;
      await client.query(`UPDATE bot_profiles SET ${kind}_type = $1, ${kind}_bytes = $2 WHERE application_id = $3`, [
        image?.contentType ?? null,
        image ? Buffer.from(image.bytes) : null,
        applicationId,
      ]);
    }
  }

  async getBotImage(applicationId: string, kind: BotImageKind, hash: string): Promise<BotImage | null> {
    const found = await this.conn.pool.query<{ type: string; bytes: Buffer }>(
      `SELECT ${kind}_type AS type, ${kind}_bytes AS bytes FROM bot_profiles
       WHERE application_id = $1 AND ${kind} = $2 AND ${kind}_bytes IS NOT NULL`,
      [applicationId, hash],
    );
    const row = found.rows[0];
    return row ? { hash, contentType: row.type, bytes: new Uint8Array(row.bytes) } : null;
  }
}
