/**
 * Where the hot path's time goes (issue 27): CPU profiles of the server (`node --cpu-prof`) under
 * (a) the 100-command list GET with rate limits off, 32 connections, and (b) the same load under
 * the `sandbox` preset, where almost every request is refused 429. Each prints the functions with
 * the most self time as shares of busy time, the inclusive shares of the costs issue 27 named, and
 * the load's rate against a bare node:http server serving the same bytes in the same run.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { exampleWorld, DEMO_APP_ID, DEMO_BOT_TOKEN } from '../test/helpers/world.js';
import { slashCommands } from './fixtures.js';
import { sharesOf, topFunctions } from './cpu-profile.js';
import { startBareServer, startSlashd } from './processes.js';
import { fixed } from './stats.js';

const CONNECTIONS = 32;
const SECONDS = 8;
const TOP = 12;
/** Costs issue 27 named in the profiles before: request ids, building refusals, serializing. */
const NAMED = ['randomBytes', 'requestId', 'ApiError', 'captureStackTrace', 'sendError', 'serialize', 'stringify'];

const auth = { authorization: `Bot ${DEMO_BOT_TOKEN}` };

interface Load {
  rate: number;
  statuses: string;
}

async function load(url: string, headers: Record<string, string>): Promise<Load> {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS });
  return { rate: result.requests.average, statuses: JSON.stringify(result.statusCodeStats) };
}

async function profiled(name: string, args: readonly string[], lines: string[], bareRate: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'slashd-profile-'));
  const slashd = await startSlashd(exampleWorld(), args, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  try {
    const commandsUrl = `${slashd.url}/api/v10/applications/${DEMO_APP_ID}/commands`;
    const put = await fetch(commandsUrl, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(slashCommands(100)),
    });
    if (!put.ok) throw new Error(`deploy failed: ${put.status} ${await put.text()}`);
    const measured = await load(commandsUrl, auth);
    await slashd.stop();
    const file = readdirSync(dir).find((entry) => entry.endsWith('.cpuprofile'));
    if (!file) throw new Error('the server wrote no profile');
    const { busySamples, functions } = topFunctions(join(dir, file), TOP);
    const named = sharesOf(join(dir, file), NAMED);
    lines.push(
      `(${name}) ${fixed(measured.rate, 0)} req/s, ratio to bare ${fixed(measured.rate / bareRate)}; statuses ${measured.statuses}; ${busySamples} busy samples`,
      ...functions.map((entry) => `    ${fixed(entry.share * 100, 1)} %  ${entry.name}`),
      `    named (inclusive): ${[...named].map(([key, share]) => `${key} ${fixed(share * 100, 1)} %`).join(', ')}`,
    );
  } finally {
    await slashd.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runProfilesBench(): Promise<{ lines: string[] }> {
  const lines: string[] = [];
  // The baseline serves the list's bytes; measured first, in the same run.
  const probe = await startSlashd(exampleWorld());
  let body: string;
  try {
    const commandsUrl = `${probe.url}/api/v10/applications/${DEMO_APP_ID}/commands`;
    await fetch(commandsUrl, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(slashCommands(100)),
    });
    body = await (await fetch(commandsUrl, { headers: auth })).text();
  } finally {
    await probe.stop();
  }
  const bare = await startBareServer(body);
  let bareRate: number;
  try {
    bareRate = (await load(`${bare.url}/`, {})).rate;
  } finally {
    await bare.stop();
  }
  lines.push(`bare node:http, the same ${body.length} bytes: ${fixed(bareRate, 0)} req/s, ${CONNECTIONS} connections, ${SECONDS} s`);
  await profiled('a: hot list, rate limits off', [], lines, bareRate);
  await profiled('b: hot list under the sandbox preset (429s)', ['--rate-limits', 'sandbox'], lines, bareRate);
  return { lines };
}
