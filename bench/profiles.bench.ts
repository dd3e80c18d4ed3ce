/**
 * Where the hot path's time goes (issue 27): CPU profiles of the server (`node --cpu-prof`) under
 * (a) the 100-command list GET with rate limits off, 32 connections, and (b) the same load under
 * the `sandbox` preset, where almost every request is refused 429. Each prints the functions with
 * the most self time as shares of busy time, the inclusive shares of the costs issue 27 named, and
 * the load's rate against a bare node:http server serving the same bytes in the same run. Then
 * (c) what each answer costs the server in CPU time per request (steadier than rates on a shared
 * machine): the list, a 401, a 404 and a 429, against the bare server's answer. And (d) the
 * list GET over a world of many guilds, a random list each time (cache-miss-lists.ts).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { exampleWorld, DEMO_APP_ID, DEMO_BOT_TOKEN } from '../test/helpers/world.js';
import { slashCommands } from './fixtures.js';
import { cacheMissLists } from './cache-miss-lists.js';
import { sharesOf, topFunctions } from './cpu-profile.js';
import { cpuMs, startBareServer, startSlashd, type ChildServer } from './processes.js';
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
  /** The server's CPU time per answer, in µs; null without /proc. */
  cpuPerRequest: number | null;
}

async function load(server: ChildServer, url: string, headers: Record<string, string>): Promise<Load> {
  const before = cpuMs(server.child.pid);
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS });
  const after = cpuMs(server.child.pid);
  const answers = result.requests.total;
  return {
    rate: result.requests.average,
    statuses: JSON.stringify(result.statusCodeStats),
    cpuPerRequest: before === null || after === null || answers === 0 ? null : ((after - before) * 1000) / answers,
  };
}

function perRequest(measured: Load): string {
  return measured.cpuPerRequest === null ? 'n/a' : `${fixed(measured.cpuPerRequest, 1)} µs`;
}

async function deployList(server: ChildServer): Promise<string> {
  const commandsUrl = `${server.url}/api/v10/applications/${DEMO_APP_ID}/commands`;
  const put = await fetch(commandsUrl, {
    method: 'PUT',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(slashCommands(100)),
  });
  if (!put.ok) throw new Error(`deploy failed: ${put.status} ${await put.text()}`);
  return commandsUrl;
}

async function profiled(name: string, args: readonly string[], lines: string[], bareRate: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'slashd-profile-'));
  const slashd = await startSlashd(exampleWorld(), args, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  try {
    const measured = await load(slashd, await deployList(slashd), auth);
    await slashd.stop();
    const file = readdirSync(dir).find((entry) => entry.endsWith('.cpuprofile'));
    if (!file) throw new Error('the server wrote no profile');
    const { busySamples, functions } = topFunctions(join(dir, file), TOP);
    const named = sharesOf(join(dir, file), NAMED);
    lines.push(
      `(${name}) ${fixed(measured.rate, 0)} req/s, ratio to bare ${fixed(measured.rate / bareRate)}; ${perRequest(measured)} CPU per answer (profiled); statuses ${measured.statuses}; ${busySamples} busy samples`,
      ...functions.map((entry) => `    ${fixed(entry.share * 100, 1)} %  ${entry.name}`),
      `    named (inclusive): ${[...named].map(([key, share]) => `${key} ${fixed(share * 100, 1)} %`).join(', ')}`,
    );
  } finally {
    await slashd.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** (c): the server's CPU per answer for a success and for each refusal, unprofiled, one server. */
async function answerCosts(lines: string[], bare: Load): Promise<void> {
  const slashd = await startSlashd(exampleWorld());
  try {
    const commandsUrl = await deployList(slashd);
    const costs: Array<[string, Load]> = [
      ['list 200', await load(slashd, commandsUrl, auth)],
      ['401 (a wrong bot token)', await load(slashd, commandsUrl, { authorization: 'Bot wrong' })],
      ['404 (no such route)', await load(slashd, `${slashd.url}/api/v10/no/such/route`, auth)],
    ];
    await slashd.stop();
    const limited = await startSlashd(exampleWorld(), ['--rate-limits', 'sandbox']);
    try {
      costs.push(['429 (the sandbox preset)', await load(limited, await deployList(limited), auth)]);
    } finally {
      await limited.stop();
    }
    lines.push(`(c) server CPU per answer: bare node:http ${perRequest(bare)}`);
    for (const [label, measured] of costs) {
      const ratio =
        measured.cpuPerRequest !== null && bare.cpuPerRequest ? measured.cpuPerRequest / bare.cpuPerRequest : NaN;
      lines.push(
        `    ${label}: ${perRequest(measured)} (${fixed(ratio, 2)}× bare), ${fixed(measured.rate, 0)} req/s, statuses ${measured.statuses}`,
      );
    }
  } finally {
    await slashd.stop();
  }
}

export async function runProfilesBench(): Promise<{ lines: string[] }> {
  const lines: string[] = [];
  // The baseline serves the list's bytes; measured first, in the same run.
  const probe = await startSlashd(exampleWorld());
  let body: string;
  try {
    const commandsUrl = await deployList(probe);
    body = await (await fetch(commandsUrl, { headers: auth })).text();
  } finally {
    await probe.stop();
  }
  const bareServer = await startBareServer(body);
  let bare: Load;
  try {
    bare = await load(bareServer, `${bareServer.url}/`, {});
  } finally {
    await bareServer.stop();
  }
  lines.push(
    `bare node:http, the same ${body.length} bytes: ${fixed(bare.rate, 0)} req/s, ${CONNECTIONS} connections, ${SECONDS} s`,
  );
  await profiled('a: hot list, rate limits off', [], lines, bare.rate);
  await profiled('b: hot list under the sandbox preset (429s)', ['--rate-limits', 'sandbox'], lines, bare.rate);
  await answerCosts(lines, bare);
  await cacheMissLists(lines);
  return { lines };
}
