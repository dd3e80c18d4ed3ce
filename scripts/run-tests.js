// Runs every compiled test file (dist/test/**/*.test.js, and those beside their resource in dist/src) with node's test runner.
// `--fast` runs only the fast tier: the files that start no process, browser or socket (fast-tier.js).
// Any other argument is a pattern: only the files whose path contains one of them run.
//
// The fast tier's files run in a few long-lived processes (shards) instead of one process each:
// such a file spends most of its CPU loading the app's modules, so one process a file cost the
// tier 43 % more CPU than its tests take. Every other file keeps a process of its own, as what it
// starts (servers, browsers, client libraries) is best stopped with its process.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FAST_TIER_GUARD, isFast } from './fast-tier.js';

/** How many test processes run at once (the machine CI runs on has two cores). */
const CONCURRENCY = 2;
/** How many processes share the fast tier's files: a few more than run at once, so they end together. */
const FAST_SHARDS = 4;

function findTests(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return findTests(path);
    return name.endsWith('.test.js') ? [path] : [];
  });
}

/**
 * Spreads `files` over `count` entry files, each importing its share, written under `dir`. The
 * largest files are placed first, each on the lightest shard so far, so the shards end together.
 */
function writeShards(files, count, dir) {
  const shards = Array.from({ length: count }, () => ({ bytes: 0, files: [] }));
  const bySize = files.map((file) => ({ file, bytes: statSync(file).size })).sort((a, b) => b.bytes - a.bytes);
  for (const { file, bytes } of bySize) {
    const lightest = shards.reduce((best, shard) => (shard.bytes < best.bytes ? shard : best));
    lightest.bytes += bytes;
    lightest.files.push(file);
  }
  return shards
    .filter((shard) => shard.files.length > 0)
    .map((shard, index) => {
      const entry = join(dir, `fast-shard-${index + 1}.test.mjs`);
      const imports = shard.files
        .sort()
        .map((file) => `await import(${JSON.stringify(pathToFileURL(resolve(file)).href)});`);
      writeFileSync(entry, `${imports.join('\n')}\n`);
      return entry;
    });
}

const args = process.argv.slice(2);
const fastOnly = args.includes('--fast');
const only = args.filter((arg) => arg !== '--fast');
const files = [...findTests('dist/test'), ...findTests('dist/src')]
  .filter((file) => only.length === 0 || only.some((pattern) => file.includes(pattern)))
  .sort();
const fastFiles = files.filter((file) => isFast(file));
const otherFiles = fastOnly ? [] : files.filter((file) => !fastFiles.includes(file));
if (fastFiles.length + otherFiles.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
if (fastOnly) console.error(`fast tier: ${fastFiles.length} test files`);

const shardDir = mkdtempSync(join(tmpdir(), 'slashd-fast-shards-'));
let status;
try {
  // A pattern naming a few files runs them one process each, as any file: a shard is worth it only for many.
  const shards = fastFiles.length > FAST_SHARDS * 2 ? writeShards(fastFiles, FAST_SHARDS, shardDir) : fastFiles;
  const result = spawnSync(
    process.execPath,
    // The guard makes the fast tier's promise checked in every process: in the whole suite too, the
    // shards' files must start nothing, and the guard lets the other files' processes do as they do.
    [
      '--enable-source-maps',
      '--import',
      FAST_TIER_GUARD,
      '--test',
      `--test-concurrency=${CONCURRENCY}`,
      ...shards,
      ...otherFiles,
    ],
    { stdio: 'inherit', env: { ...process.env, SLASHD_FAST_TIER_FILES: JSON.stringify(shards) } },
  );
  status = result.status ?? 1;
} finally {
  rmSync(shardDir, { recursive: true, force: true });
}
process.exit(status);
