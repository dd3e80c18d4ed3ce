/**
 * GET of a 100-command global list, one node on PostgreSQL against one node on SQLite, both
 * `slashd serve` through the CLI, same world, same list, measured in the same run:
 *   (a) throughput, alternating autocannon rounds (median of the per-round ratios);
 *   (b) latency of sequential requests, alternating blocks.
 * The PostgreSQL node runs on a fresh schema (dropped afterwards) and without Redis: one node.
 */
import autocannon from 'autocannon';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exampleWorld, DEMO_APP_ID, DEMO_BOT_TOKEN } from '../test/helpers/world.js';
import { slashCommands } from './fixtures.js';
import { dropSchema, freshSchemaName, postgresConnectionString } from './postgres.js';
import { startSlashdWith, type ChildServer } from './processes.js';
import { fixed, median, percentile } from './stats.js';

const ROUNDS = 5;
const ROUND_SECONDS = 4;
const CONNECTIONS = 10;
const LATENCY_ROUNDS = 6;
const LATENCY_BLOCK = 300;

const auth = { authorization: `Bot ${DEMO_BOT_TOKEN}` };

export async function requestsPerSecond(url: string): Promise<number> {
  const result = await autocannon({ url, headers: auth, connections: CONNECTIONS, duration: ROUND_SECONDS });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(
      `${result.non2xx} non-2xx responses, ${result.errors} errors: ${JSON.stringify(result.statusCodeStats)}`,
    );
  }
  return result.requests.average;
}

async function latencies(url: string, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = process.hrtime.bigint();
    const response = await fetch(url, { headers: auth });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`status ${response.status}`);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return times;
}

export async function deploy(commandsUrl: string): Promise<string> {
  const put = await fetch(commandsUrl, {
    method: 'PUT',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(slashCommands(100)),
  });
  if (!put.ok) throw new Error(`deploy failed: ${put.status} ${await put.text()}`);
  return (await fetch(commandsUrl, { headers: auth })).text();
}

export async function runStoresBench(): Promise<{ lines: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'slashd-stores-'));
  const worldPath = join(dir, 'world.json');
  writeFileSync(worldPath, JSON.stringify(exampleWorld()));
  const schema = freshSchemaName('bench_stores');
  const common = ['--world', worldPath, '--admin-token', 'bench'];
  const servers: ChildServer[] = [];
  try {
    servers.push(
      await startSlashdWith(['--db', join(dir, 'bench.sqlite'), ...common]),
      await startSlashdWith(['--db', postgresConnectionString, '--db-schema', schema, ...common]),
    );
    const [sqlite, postgres] = servers.map((s) => `${s.url}/api/v10/applications/${DEMO_APP_ID}/commands`) as [
      string,
      string,
    ];
    const sqliteList = await deploy(sqlite);
    const postgresList = await deploy(postgres);
    if (sqliteList.length !== postgresList.length) {
      throw new Error(`lists differ in length: SQLite ${sqliteList.length}, PostgreSQL ${postgresList.length}`);
    }

    const pgRates: number[] = [];
    const sqliteRates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Order swapped every round, so neither always runs on a machine warmed (or loaded) by the other.
      if (round % 2 === 0) {
        sqliteRates.push(await requestsPerSecond(sqlite));
        pgRates.push(await requestsPerSecond(postgres));
      } else {
        pgRates.push(await requestsPerSecond(postgres));
        sqliteRates.push(await requestsPerSecond(sqlite));
      }
    }
    const ratios = pgRates.map((rate, i) => rate / sqliteRates[i]!);

    const pgTimes: number[] = [];
    const sqliteTimes: number[] = [];
    await latencies(sqlite, 100);
    await latencies(postgres, 100);
    for (let round = 0; round < LATENCY_ROUNDS; round++) {
      sqliteTimes.push(...(await latencies(sqlite, LATENCY_BLOCK)));
      pgTimes.push(...(await latencies(postgres, LATENCY_BLOCK)));
    }
    pgTimes.sort((a, b) => a - b);
    sqliteTimes.sort((a, b) => a - b);
    return {
      lines: [
        `(a) GET 100-command list, throughput: PostgreSQL ${fixed(median(pgRates), 0)} req/s, SQLite ${fixed(median(sqliteRates), 0)} req/s, ratio PostgreSQL/SQLite ${fixed(median(ratios))} (median of ${ROUNDS} alternating ${ROUND_SECONDS}s rounds, range ${fixed(Math.min(...ratios))}-${fixed(Math.max(...ratios))}, ${CONNECTIONS} connections, ${sqliteList.length} bytes)`,
        `(b) GET 100-command list, sequential latency: PostgreSQL p50 ${fixed(percentile(pgTimes, 50), 3)} ms, p99 ${fixed(percentile(pgTimes, 99), 3)} ms; SQLite p50 ${fixed(percentile(sqliteTimes, 50), 3)} ms, p99 ${fixed(percentile(sqliteTimes, 99), 3)} ms; ratio p50 ${fixed(percentile(pgTimes, 50) / percentile(sqliteTimes, 50))} (${LATENCY_ROUNDS} alternating blocks of ${LATENCY_BLOCK})`,
      ],
    };
  } finally {
    for (const server of servers) await server.stop();
    await dropSchema(schema);
    rmSync(dir, { recursive: true, force: true });
  }
}
