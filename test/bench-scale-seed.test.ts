/**
 * The scale benchmark's seed writes straight into the PostgreSQL tables, past the store: this
 * keeps it honest. What it writes must read back through the real store and service exactly as
 * commands created over the API would, and a complete seed must be found again and reused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ensureSeeded, scaleAppId, scaleBotToken, scaleDefinitions, type ScaleShape } from '../bench/scale-seed.js';
import { isSnowflake, SnowflakeGenerator } from '../src/core/snowflake.js';
import { CommandsService } from '../src/resources/commands/service.js';
import { PostgresStore } from '../src/store/postgres/index.js';
import {
  dropSchema,
  freshSchemaName,
  postgresConnectionString,
  unreachable,
  withAdminClient,
} from './helpers/postgres.js';

describe('the scale benchmark seed', () => {
  const shape: ScaleShape = { schema: freshSchemaName('slashd_seed'), apps: 7, commandsPerApp: 5 };

  before(async () => {
    await withAdminClient(async () => {}).catch((error: unknown) => {
      throw unreachable(error);
    });
  });
  after(() => dropSchema(shape.schema));

  it('writes rows the store reads back as created commands, and is reused once complete', async () => {
    assert.equal((await ensureSeeded(shape)).seeded, true);
    const store = await PostgresStore.open({ connectionString: postgresConnectionString, schema: shape.schema });
    try {
      const expected = scaleDefinitions(shape.commandsPerApp);
      for (const index of [0, 3, shape.apps - 1]) {
        const app = await store.world.findApplicationByBotToken(scaleBotToken(index));
        assert.ok(app, 'the bot token finds its app');
        assert.equal(app.id, scaleAppId(index));
        const scope = { applicationId: scaleAppId(index), guildId: null };
        const listed = await store.commands.listCommands(scope);
        assert.deepEqual(
          listed.map((c) => c.definition),
          expected,
          'the same definitions, in creation order',
        );
        for (const c of listed) {
          assert.ok(isSnowflake(c.id));
          assert.equal(c.version, c.id, 'a new command: its version is its id');
          assert.equal(c.guild_id, null);
        }
        // A create of a seeded name is an upsert of that command, as for one created over the API.
        const service = new CommandsService({ store: store.commands, ids: new SnowflakeGenerator(1, 1) });
        const { created } = await service.create(app, scope, { name: 'cmd-0', description: 'Changed' });
        assert.equal(created, false);
      }
    } finally {
      await store.close();
    }
    assert.equal((await ensureSeeded(shape)).seeded, false, 'a complete seed is found and reused');
  });
});
