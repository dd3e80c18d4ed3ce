/**
 * Seeds a PostgreSQL schema with many applications and their global commands, written straight
 * into the store's tables (src/store/postgres/migrations.ts; values as src/store/rows.ts and the
 * command store write them), in multi-row INSERT ... SELECT FROM unnest(...) batches of one
 * transaction each. Nothing goes through HTTP: 1,000,000 commands take about a minute, not hours.
 *
 * A complete seed marks its schema (a comment on it) and is reused, so a kept schema (`--keep`)
 * saves the seed on the next run; a schema without the mark (an interrupted seed) is dropped and redone.
 */
import pg from 'pg';
import type { CommandDefinition } from '../src/core/commands/model.js';
import { orThrow } from '../src/core/io/result.js';
import { SnowflakeGenerator } from '../src/core/snowflake.js';
import { validateCreateCommand, type ValidationContext } from '../src/core/validation/index.js';
import type { Application } from '../src/core/world/types.js';
import { generateApplicationKeys } from '../src/store/keys.js';
import { tokenDigest } from '../src/store/tokens.js';
import { slashCommand } from './fixtures.js';
import { dropSchema, openBenchStore, postgresConnectionString } from './postgres.js';

export interface ScaleShape {
  /** The schema kept between runs (not random: a kept seed is found again by name). */
  schema: string;
  apps: number;
  commandsPerApp: number;
}

/** 1,000,000 commands across 20,000 applications (50 global commands each). */
export const LARGE: ScaleShape = { schema: 'bench_scale', apps: 20_000, commandsPerApp: 50 };
/** The baseline: 1,000 commands, the same 50 per application, so every list is the same bytes. */
export const SMALL: ScaleShape = { schema: 'bench_scale_small', apps: 20, commandsPerApp: 50 };

/** Rows per INSERT, each batch its own transaction. */
const COMMAND_BATCH_ROWS = 20_000;
const APPLICATION_BATCH_ROWS = 5_000;
/** Application ids start here (snowflake-shaped, far from the demo world's). */
const FIRST_APP_ID = 1_400_000_000_000_000_000n;
/** The clock the command ids are minted with (2026-01-01), fixed so that every seed is alike. */
const SEED_CLOCK_MS = Date.UTC(2026, 0, 1);

export function scaleAppId(index: number): string {
  return (FIRST_APP_ID + BigInt(index)).toString();
}

export function scaleBotToken(index: number): string {
  return `bench-scale-bot-${index}`;
}

function scaleApplication(index: number): Application {
  return {
    id: scaleAppId(index),
    name: `Scale app ${index}`,
    owner_id: '1335036896870400001',
    bot_token: scaleBotToken(index),
    client_secret: `bench-scale-secret-${index}`,
    public_client: false,
    redirect_uris: [],
    flags: 0,
    integration_types: [0, 1],
    discoverable: false,
    interactions_endpoint_url: null,
  };
}

/** The stored definitions of one application's commands, as the create route would store them. */
export function scaleDefinitions(count: number): CommandDefinition[] {
  const ctx: ValidationContext = { scope: 'global', app: { flags: 0, integration_types: [0, 1], discoverable: false } };
  return Array.from({ length: count }, (_, k) => orThrow(validateCreateCommand(slashCommand(`cmd-${k}`), ctx)));
}

async function withSchemaClient<T>(schema: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresConnectionString, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function inTransaction(client: pg.Client, work: () => Promise<unknown>): Promise<void> {
  await client.query('BEGIN');
  try {
    await work();
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

async function insertApplications(client: pg.Client, shape: ScaleShape): Promise<void> {
  // One key pair for every application: keys are only read when signing, which no list does.
  const keys = generateApplicationKeys();
  for (let start = 0; start < shape.apps; start += APPLICATION_BATCH_ROWS) {
    const apps = Array.from({ length: Math.min(APPLICATION_BATCH_ROWS, shape.apps - start) }, (_, i) =>
      scaleApplication(start + i),
    );
    await inTransaction(client, () =>
      client.query(
        `INSERT INTO applications (id, bot_token_hash, doc, verify_key, private_key_pem)
         SELECT id, hash, doc, $4, $5 FROM unnest($1::text[], $2::text[], $3::text[]) AS t(id, hash, doc)`,
        [
          apps.map((a) => a.id),
          apps.map((a) => tokenDigest(a.bot_token)),
          apps.map((a) => JSON.stringify(a)),
          keys.verifyKey,
          keys.privateKeyPem,
        ],
      ),
    );
  }
}

/**
 * Every application gets the same `commandsPerApp` definitions (so each list is the same size);
 * the definitions and names travel once per batch and rows pick theirs by index. Rows are written
 * command-major (every app's first command, then every app's second, ...), as apps that deploy
 * over time interleave: one app's commands sit on as many table pages as it has commands, the
 * worst case for a list, rather than side by side as an app-by-app seed would leave them.
 */
async function insertCommands(client: pg.Client, shape: ScaleShape): Promise<void> {
  const definitions = scaleDefinitions(shape.commandsPerApp);
  const texts = definitions.map((d) => JSON.stringify(d));
  const names = definitions.map((d) => d.name);
  const ids = new SnowflakeGenerator(0, 0, () => SEED_CLOCK_MS);
  const total = shape.apps * shape.commandsPerApp;
  for (let start = 0; start < total; start += COMMAND_BATCH_ROWS) {
    const count = Math.min(COMMAND_BATCH_ROWS, total - start);
    const appIds: string[] = new Array<string>(count);
    const commandIds: string[] = new Array<string>(count);
    const which: number[] = new Array<number>(count);
    for (let i = 0; i < count; i++) {
      const row = start + i;
      appIds[i] = scaleAppId(row % shape.apps);
      commandIds[i] = ids.next();
      which[i] = Math.floor(row / shape.apps) + 1;
    }
    // A new command's version is its id, as planCreate makes it; type 1 (CHAT_INPUT), global scope ('').
    await inTransaction(client, () =>
      client.query(
        `INSERT INTO commands (application_id, guild_key, id, type, name, version, definition)
         SELECT app, '', id, 1, ($4::text[])[k], id, ($5::text[])[k]
         FROM unnest($1::text[], $2::text[], $3::int[]) AS t(app, id, k)`,
        [appIds, commandIds, which, names, texts],
      ),
    );
  }
}

/** Written on the schema once a seed is complete: a schema without it (or another layout's) is reseeded. */
function seedMark(shape: ScaleShape): string {
  return `slashd bench seed v2: ${shape.apps} apps x ${shape.commandsPerApp} commands, command-major`;
}

async function isSeeded(shape: ScaleShape): Promise<boolean> {
  return withSchemaClient(shape.schema, async (client) => {
    const result = await client.query<{ mark: string | null }>(
      "SELECT obj_description(oid, 'pg_namespace') AS mark FROM pg_namespace WHERE nspname = $1",
      [shape.schema],
    );
    return result.rows[0]?.mark === seedMark(shape);
  });
}

export interface SeedReport {
  /** False when a complete seed was found and reused. */
  seeded: boolean;
  ms: number;
}

/** Makes `shape.schema` hold exactly the shape's applications and commands, reusing a complete seed. */
export async function ensureSeeded(shape: ScaleShape): Promise<SeedReport> {
  const started = performance.now();
  // Opening the store creates the schema and applies any migration it lacks (a new index, too).
  await (await openBenchStore(shape.schema, 1)).close();
  if (await isSeeded(shape)) return { seeded: false, ms: performance.now() - started };
  await dropSchema(shape.schema);
  await (await openBenchStore(shape.schema, 1)).close();
  await withSchemaClient(shape.schema, async (client) => {
    await insertApplications(client, shape);
    await insertCommands(client, shape);
    // As a table that has lived a while: hint bits set, visibility map and statistics current.
    await client.query('VACUUM ANALYZE applications');
    await client.query('VACUUM ANALYZE commands');
    await client.query(`COMMENT ON SCHEMA ${shape.schema} IS '${seedMark(shape)}'`);
  });
  return { seeded: true, ms: performance.now() - started };
}

/** The plan PostgreSQL chooses for the command store's list query, for one application. */
export async function explainList(schema: string, applicationId: string): Promise<string[]> {
  if (!/^\d+$/.test(applicationId)) throw new Error(`not an application id: ${applicationId}`);
  return withSchemaClient(schema, async (client) => {
    // The same text as PostgresCommandStore.readCommands, with its parameters as a prepared statement.
    await client.query(
      `PREPARE bench_list(text, text) AS SELECT application_id, guild_key, id, version, definition FROM commands
       WHERE application_id = $1 AND guild_key = $2 ORDER BY length(id), id`,
    );
    const result = await client.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS) EXECUTE bench_list('${applicationId}', '')`,
    );
    return result.rows.map((r) => r['QUERY PLAN']);
  });
}

export { dropSchema };
