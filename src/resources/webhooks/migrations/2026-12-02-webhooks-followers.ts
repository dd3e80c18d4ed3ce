/**
 * Channel follower webhooks (type 2): a webhook's type, and for a follower the announcement channel
 * (and its guild) it follows, found by that channel when a message of it is crossposted. The
 * incoming webhooks made before are type 1 with no source.
 */
import type { DatedMigration } from '../../../store/dated-migrations.js';

export const webhookFollowersColumns: DatedMigration = {
  name: '2026-12-02-webhooks-followers',
  sqlite: `
    ALTER TABLE webhooks ADD COLUMN type INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE webhooks ADD COLUMN source_guild_id TEXT;
    ALTER TABLE webhooks ADD COLUMN source_channel_id TEXT;
    CREATE INDEX webhooks_by_source_channel ON webhooks (source_channel_id) WHERE source_channel_id IS NOT NULL;
  `,
  postgres: `
    ALTER TABLE webhooks ADD COLUMN type INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE webhooks ADD COLUMN source_guild_id TEXT COLLATE "C";
    ALTER TABLE webhooks ADD COLUMN source_channel_id TEXT COLLATE "C";
    CREATE INDEX webhooks_by_source_channel ON webhooks (source_channel_id) WHERE source_channel_id IS NOT NULL;
  `,
};
