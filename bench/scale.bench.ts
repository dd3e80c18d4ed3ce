/**
 * List latency at scale on PostgreSQL: 1,000,000 stored commands across 20,000 applications
 * against a baseline of 1,000 commands across 20 applications, every application holding the same
 * 50 global commands (so every list is the same bytes). Each request lists a random application
 * of its schema. Both schemas are measured in the same run, alternating request by request.
 *   (a) the store's list query (PostgresCommandStore.listCommands), in this process;
 *   (b) GET /applications/{id}/commands through `slashd serve --db postgres://...`, one server per schema.
 * Also the plan PostgreSQL picks for the list query on the large schema (it must use an index).
 *
 * The seed (bench/scale-seed.ts) is timed and reported apart. `--keep` keeps both schemas for the
 * next run (found again and reused); `--drop` only drops them.
 */
import type { PostgresStore } from '../src/store/postgres/index.js';
import { dropSchema, ensureSeeded, explainList, LARGE, SMALL, scaleAppId, scaleBotToken } from './scale-seed.js';
import { openBenchStore, postgresConnectionString } from './postgres.js';
import { startSlashdWith, type ChildServer } from './processes.js';
import { fixed, median, percentile, picker } from './stats.js';

/** Rounds of alternating sequential requests, and requests per schema in a round. */
const ROUNDS = 6;
const BLOCK = 500;
const WARMUP = 300;
/** Goal of the issue: list latency at 1M commands within 1.2× of a small world. */
const GOAL_RATIO = 1.2;

/** The store's cache budget in this benchmark: none (see storeLevel). */
const NO_LIST_CACHE = 0;

type Timed = (appIndex: number) => Promise<void>;

async function timed(run: Timed, app: number): Promise<number> {
  const started = process.hrtime.bigint();
  await run(app);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Latencies (ms) of each round, per schema. */
interface Comparison {
  large: number[][];
  small: number[][];
}

/**
 * Alternates the two request by request (which goes first swapped every pair), so a burst of
 * load on a shared machine hits both sides alike; rounds only group the pairs for the ratio's range.
 */
async function alternate(large: Timed, small: Timed): Promise<Comparison> {
  const pickLarge = picker(0x5eed);
  const pickSmall = picker(0x5eed);
  for (let i = 0; i < WARMUP; i++) {
    await timed(large, pickLarge(LARGE.apps));
    await timed(small, pickSmall(SMALL.apps));
  }
  const out: Comparison = { large: [], small: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const l: number[] = [];
    const s: number[] = [];
    for (let i = 0; i < BLOCK; i++) {
      if (i % 2 === 0) {
        l.push(await timed(large, pickLarge(LARGE.apps)));
        s.push(await timed(small, pickSmall(SMALL.apps)));
      } else {
        s.push(await timed(small, pickSmall(SMALL.apps)));
        l.push(await timed(large, pickLarge(LARGE.apps)));
      }
    }
    out.large.push(l);
    out.small.push(s);
  }
  return out;
}

const sorted = (blocks: number[][]) => blocks.flat().sort((a, b) => a - b);
const p50 = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

function describe(label: string, comparison: Comparison): string {
  const large = sorted(comparison.large);
  const small = sorted(comparison.small);
  // Each round pairs two neighbouring blocks, so drift on a shared machine cancels out of its ratio.
  const ratios = comparison.large.map((block, i) => p50(block) / p50(comparison.small[i]!));
  const ratio = median(ratios);
  const verdict = ratio <= GOAL_RATIO ? 'met' : 'MISSED';
  return (
    `${label}: 1M commands p50 ${fixed(percentile(large, 50), 3)} ms, p99 ${fixed(percentile(large, 99), 3)} ms; ` +
    `1k commands p50 ${fixed(percentile(small, 50), 3)} ms, p99 ${fixed(percentile(small, 99), 3)} ms; ` +
    `ratio p50 ${fixed(ratio)} (goal <= ${GOAL_RATIO}: ${verdict}; median of the per-round ratios, range ` +
    `${fixed(Math.min(...ratios))}-${fixed(Math.max(...ratios))}), ratio p99 ${fixed(percentile(large, 99) / percentile(small, 99))} ` +
    `(${ROUNDS} rounds of ${BLOCK} sequential lists per schema, alternating request by request, each of a random app)`
  );
}

export async function storeLevel(): Promise<string> {
  // No list cache on either side: 20 apps' lists would all stay cached while 20,000 could not, and
  // the figure would compare a cache's hit rate instead of the cost of a list in a large table.
  const stores: PostgresStore[] = [
    await openBenchStore(LARGE.schema, 1, NO_LIST_CACHE),
    await openBenchStore(SMALL.schema, 1, NO_LIST_CACHE),
  ];
  const [large, small] = stores as [PostgresStore, PostgresStore];
  const list = (store: PostgresStore, expected: number) => async (app: number) => {
    const commands = await store.commands.listCommands({ applicationId: scaleAppId(app), guildId: null });
    if (commands.length !== expected) throw new Error(`listed ${commands.length} commands, not ${expected}`);
  };
  try {
    return describe(
      '(a) store list query',
      await alternate(list(large, LARGE.commandsPerApp), list(small, SMALL.commandsPerApp)),
    );
  } finally {
    await Promise.all(stores.map((s) => s.close()));
  }
}

function startOnSchema(schema: string): Promise<ChildServer> {
  // `--cache-mb 0`: as in storeLevel, no list cache on either side.
  return startSlashdWith([
    '--db',
    postgresConnectionString,
    '--db-schema',
    schema,
    '--admin-token',
    'bench',
    '--cache-mb',
    '0',
  ]);
}

async function httpLevel(): Promise<string> {
  const servers: ChildServer[] = [];
  try {
    servers.push(await startOnSchema(LARGE.schema), await startOnSchema(SMALL.schema));
    const [large, small] = servers as [ChildServer, ChildServer];
    let expectedBytes = -1;
    const get = (server: ChildServer) => async (app: number) => {
      const response = await fetch(`${server.url}/api/v10/applications/${scaleAppId(app)}/commands`, {
        headers: { authorization: `Bot ${scaleBotToken(app)}` },
      });
      const body = await response.arrayBuffer();
      if (!response.ok) throw new Error(`list answered ${response.status}`);
      // Every application's list is the same definitions under other ids: same length.
      if (expectedBytes < 0) expectedBytes = body.byteLength;
      else if (Math.abs(body.byteLength - expectedBytes) > LARGE.commandsPerApp * 4) {
        throw new Error(`list of ${body.byteLength} bytes, expected about ${expectedBytes}`);
      }
    };
    return `${describe('(b) GET list over HTTP', await alternate(get(large), get(small)))}, ${expectedBytes} bytes`;
  } finally {
    for (const server of servers) await server.stop();
  }
}

export async function runScaleBench(flags: ReadonlySet<string>): Promise<{ lines: string[] }> {
  if (flags.has('--drop')) {
    await dropSchema(LARGE.schema);
    await dropSchema(SMALL.schema);
    return { lines: [`dropped schemas ${LARGE.schema} and ${SMALL.schema}`] };
  }
  const lines: string[] = [];
  try {
    for (const shape of [SMALL, LARGE]) {
      const seed = await ensureSeeded(shape);
      const rows = shape.apps * shape.commandsPerApp;
      lines.push(
        seed.seeded
          ? `seed ${shape.schema}: ${rows} commands across ${shape.apps} apps written in ${fixed(seed.ms / 1000, 1)} s`
          : `seed ${shape.schema}: ${rows} commands across ${shape.apps} apps found complete, reused`,
      );
    }
    const plan = await explainList(LARGE.schema, scaleAppId(Math.floor(LARGE.apps / 2)));
    const indexed = plan.some((line) => /Index (Only )?Scan|Bitmap Index Scan/.test(line));
    lines.push(`plan of the list query on ${LARGE.schema} (${indexed ? 'uses an index' : 'NO INDEX: a finding'}):`);
    lines.push(...plan.map((line) => `    ${line}`));
    lines.push(await storeLevel());
    lines.push(await httpLevel());
  } finally {
    if (!flags.has('--keep')) {
      await dropSchema(LARGE.schema);
      await dropSchema(SMALL.schema);
      lines.push(`dropped ${LARGE.schema} and ${SMALL.schema} (run with --keep to reuse the seed next time)`);
    }
  }
  return { lines };
}
