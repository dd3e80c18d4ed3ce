/** The SQLite BotProfileStore: the bot_profiles table (rows deleted with their application). */
import type { SqliteConnection } from '../../store/sqlite/connection.js';
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

export class SqliteBotProfileStore implements BotProfileStore {
  constructor(private readonly conn: SqliteConnection) {}

  async getBotProfile(applicationId: string): Promise<StoredBotProfile | null> {
    return this.read(applicationId);
  }

  private read(applicationId: string): StoredBotProfile | null {
    const row = this.conn
      .sql(`SELECT ${PROFILE_COLUMNS} FROM bot_profiles WHERE application_id = ?`)
      .get(applicationId) as ProfileRow | undefined;
    return row ? profileFromRow(row) : null;
  }

  async mutateBotProfile<T>(applicationId: string, plan: BotProfilePlanner<T>): Promise<T> {
    return this.conn.transaction(() => {
      const { write, outcome } = plan(this.read(applicationId));
      if (write) this.write(applicationId, write);
      return outcome;
    });
  }

  private write(applicationId: string, { profile, avatar, banner }: BotProfileWrite): void {
    // The application's cached reads carry the profile (the world store joins it).
    this.conn.cached.forgetApplication(applicationId);
    this.conn
      .sql(
        `INSERT INTO bot_profiles (application_id, ${PROFILE_COLUMNS}) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (application_id) DO UPDATE SET username = excluded.username, avatar = excluded.avatar,
           banner = excluded.banner, username_changes = excluded.username_changes`,
      )
      .run(applicationId, profile.username, profile.avatar, profile.banner, JSON.stringify(profile.username_changes));
    for (const [kind, image] of [
      ['avatar', avatar],
      ['banner', banner],
    ] as const) {
      if (image === undefined) continue;
      this.conn
        .sql(`UPDATE bot_profiles SET ${kind}_type = ?, ${kind}_bytes = ? WHERE application_id = ?`)
        .run(image?.contentType ?? null, image ? Buffer.from(image.bytes) : null, applicationId);
    }
  }

  async getBotImage(applicationId: string, kind: BotImageKind, hash: string): Promise<BotImage | null> {
    const row = this.conn
      .sql(
        `SELECT ${kind}_type AS type, ${kind}_bytes AS bytes FROM bot_profiles
         WHERE application_id = ? AND ${kind} = ? AND ${kind}_bytes IS NOT NULL`,
      )
      .get(applicationId, hash) as { type: string; bytes: Buffer } | undefined;
    return row ? { hash, contentType: row.type, bytes: new Uint8Array(row.bytes) } : null;
  }
}
