/**
 * Command endpoint benchmarks, each against a baseline measured in the same run:
 * (a) GET of a 100-command global list vs a bare node:http server returning the same bytes,
 *     alternating rounds; (b) create (upsert) requests per second; (c) bulk overwrite of 130
 *     commands, p50/p99 latency, vs a bare server round trip of the same request.
 */
import autocannon from 'autocannon';
import { exampleWorld, DEMO_APP_ID, DEMO_BOT_TOKEN } from '../test/helpers/world.js';
import { fullBulkList, slashCommand, slashCommands } from './fixtures.js';
import { startBareServer, startSlashd } from './processes.js';
import { fixed, median, percentile } from './stats.js';

const ROUNDS = 5;
const ROUND_SECONDS = 4;
const CONNECTIONS = 10;
const BULK_ITERATIONS = 150;

const auth = { authorization: `Bot ${DEMO_BOT_TOKEN}` };

async function requestsPerSecond(options: autocannon.Options): Promise<number> {
  const result = await autocannon({ connections: CONNECTIONS, duration: ROUND_SECONDS, ...options });
  if (result.non2xx > 0 || result.errors > 0) {
    const statuses = JSON.stringify(result.statusCodeStats);
    throw new Error(`benchmark run had ${result.non2xx} non-2xx responses and ${result.errors} errors: ${statuses}`);
  }
  return result.requests.average;
}

async function timedRequests(url: string, init: (i: number) => RequestInit, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = process.hrtime.bigint();
    const response = await fetch(url, init(i));
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`status ${response.status}`);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return times.sort((a, b) => a - b);
}

export async function runCommandsBench(): Promise<{ lines: string[] }> {
  const lines: string[] = [];
  const slashd = await startSlashd(exampleWorld());
  const commandsUrl = `${slashd.url}/api/v10/applications/${DEMO_APP_ID}/commands`;
  try {
    const put = await fetch(commandsUrl, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(slashCommands(100)),
    });
    if (!put.ok) throw new Error(`deploy failed: ${put.status} ${await put.text()}`);
    const listBody = await (await fetch(commandsUrl, { headers: auth })).text();

    // (a) list vs bare node:http, alternating so that drift on a shared machine hits both.
    const bare = await startBareServer(listBody);
    const listRates: number[] = [];
    const bareRates: number[] = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        listRates.push(await requestsPerSecond({ url: commandsUrl, headers: auth }));
        bareRates.push(await requestsPerSecond({ url: `${bare.url}/` }));
      }
      // (c) baseline: the same 130-command PUT body, answered by the bare server.
      const bulkBody = JSON.stringify(fullBulkList(0));
      const bareBulk = await timedRequests(
        `${bare.url}/`,
        () => ({ method: 'PUT', headers: { 'content-type': 'application/json' }, body: bulkBody }),
        BULK_ITERATIONS,
      );
      const bulkLists = [JSON.stringify(fullBulkList(0)), JSON.stringify(fullBulkList(1))];
      const bulk = await timedRequests(
        commandsUrl,
        (i) => ({
          method: 'PUT',
          headers: { ...auth, 'content-type': 'application/json' },
          body: bulkLists[i % 2] ?? null,
        }),
        BULK_ITERATIONS,
      );
      // (b) create (upsert): two definitions of an existing name alternate, so every request writes.
      const createBodies = [JSON.stringify(slashCommand('cmd-0', 7)), JSON.stringify(slashCommand('cmd-0', 8))];
      const createRate = await requestsPerSecond({
        url: commandsUrl,
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        requests: [{ body: createBodies[0] }, { body: createBodies[1] }],
      });
      const bareRate = median(bareRates);
      const listRate = median(listRates);
      // Each round pairs two neighbouring measurements, so drift on a shared machine cancels out.
      const ratios = listRates.map((rate, i) => rate / bareRates[i]!);
      lines.push(
        `(a) GET 100-command list: slashd ${fixed(listRate, 0)} req/s, bare node:http ${fixed(bareRate, 0)} req/s, ratio ${fixed(median(ratios))} (goal >= 0.8; median of the per-round ratios, ${ROUNDS} alternating ${ROUND_SECONDS}s rounds, range ${fixed(Math.min(...ratios))}-${fixed(Math.max(...ratios))}, ${CONNECTIONS} connections, ${listBody.length} bytes)`,
        `(b) create (upsert, every request a write): ${fixed(createRate, 0)} req/s, ratio to bare GET ${fixed(createRate / bareRate, 3)}`,
        `(c) bulk overwrite of 130 commands: p50 ${fixed(percentile(bulk, 50))} ms, p99 ${fixed(percentile(bulk, 99))} ms; bare round trip of the same body p50 ${fixed(percentile(bareBulk, 50))} ms; ratio p50 ${fixed(percentile(bulk, 50) / percentile(bareBulk, 50), 1)} (${BULK_ITERATIONS} sequential PUTs alternating two lists)`,
      );
    } finally {
      await bare.stop();
    }
  } finally {
    await slashd.stop();
  }
  return { lines };
}
