/**
 * What operations cost, against a list GET measured in the same run: (a) the work added to every
 * request (the request id and the histogram observation), timed in this process over many calls,
 * as a share of one 100-command list GET round trip to a slashd child; (b) one `/metrics` scrape
 * round trip against the same list GET round trip.
 */
import type { IncomingMessage } from 'node:http';
import { requestId } from '../src/http/observability.js';
import { PrometheusMetrics } from '../src/metrics/prometheus.js';
import { exampleWorld, DEMO_APP_ID, DEMO_BOT_TOKEN } from '../test/helpers/world.js';
import { slashCommands } from './fixtures.js';
import { startSlashd } from './processes.js';
import { fixed, median, percentile } from './stats.js';

const ROUNDS = 5;
const HOOK_CALLS_PER_ROUND = 200_000;
const ROUND_TRIPS = 1_000;
const SCRAPES = 200;
/** The admin token `startSlashd` gives the server; it may scrape. */
const BENCH_ADMIN_TOKEN = 'bench';
const ROUTE = '/api/v10/applications/:applicationId/commands';

async function roundTrips(url: string, headers: Record<string, string>, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = process.hrtime.bigint();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url}: status ${response.status}`);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return times.sort((a, b) => a - b);
}

/** Microseconds per request of the hooks' own work: a generated id (the costlier case) and one observation. */
function hookMicros(metrics: PrometheusMetrics): number {
  const request = { headers: {} } as IncomingMessage;
  const started = process.hrtime.bigint();
  for (let i = 0; i < HOOK_CALLS_PER_ROUND; i++) {
    requestId(request);
    metrics.request(ROUTE, 'GET', 200 + (i % 3) * 100, 0.002);
  }
  return Number(process.hrtime.bigint() - started) / 1e3 / HOOK_CALLS_PER_ROUND;
}

export async function runMetricsBench(): Promise<{ lines: string[] }> {
  const slashd = await startSlashd(exampleWorld());
  const auth = { authorization: `Bot ${DEMO_BOT_TOKEN}` };
  const listUrl = `${slashd.url}/api/v10/applications/${DEMO_APP_ID}/commands`;
  try {
    const put = await fetch(listUrl, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(slashCommands(100)),
    });
    if (!put.ok) throw new Error(`deploy failed: ${put.status} ${await put.text()}`);
    const metrics = new PrometheusMetrics();
    const hooks: number[] = [];
    const lists: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      hooks.push(hookMicros(metrics));
      lists.push(percentile(await roundTrips(listUrl, auth, ROUND_TRIPS / ROUNDS), 50) * 1000);
    }
    const scrapes = await roundTrips(
      `${slashd.url}/metrics`,
      { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` },
      SCRAPES,
    );
    const listAgain = await roundTrips(listUrl, auth, SCRAPES);
    const ratios = hooks.map((micros, i) => micros / lists[i]!);
    return {
      lines: [
        `(a) per-request hooks (request id + histogram observation): ${fixed(median(hooks), 3)} µs; list GET round trip p50 ${fixed(median(lists), 0)} µs; ratio ${fixed(median(ratios), 4)} (median of ${ROUNDS} rounds, range ${fixed(Math.min(...ratios), 4)}-${fixed(Math.max(...ratios), 4)}; ${HOOK_CALLS_PER_ROUND} calls and ${ROUND_TRIPS / ROUNDS} sequential GETs per round)`,
        `(b) one /metrics scrape round trip: p50 ${fixed(percentile(scrapes, 50))} ms, p99 ${fixed(percentile(scrapes, 99))} ms; list GET p50 ${fixed(percentile(listAgain, 50))} ms right after; ratio p50 ${fixed(percentile(scrapes, 50) / percentile(listAgain, 50), 1)} (${SCRAPES} sequential each)`,
      ],
    };
  } finally {
    await slashd.stop();
  }
}
