// Runs every compiled test file (dist/test/**/*.test.js, and those beside their resource in dist/src) with node's test runner.
// `--fast` runs only the fast tier: the files that start no process, browser or socket (fast-tier.js).
// Any other argument is a pattern: only the files whose path contains one of them run.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FAST_TIER_GUARD, isFast } from './fast-tier.js';

function findTests(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return findTests(path);
    return name.endsWith('.test.js') ? [path] : [];
  });
}

const args = process.argv.slice(2);
const fast = args.includes('--fast');
const only = args.filter((arg) => arg !== '--fast');
const files = [...findTests('dist/test'), ...findTests('dist/src')]
  .filter((file) => only.length === 0 || only.some((pattern) => file.includes(pattern)))
  .filter((file) => !fast || isFast(file))
  .sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
if (fast) console.error(`fast tier: ${files.length} test files`);
const guard = fast ? ['--import', FAST_TIER_GUARD] : [];
const result = spawnSync(
  process.execPath,
  ['--enable-source-maps', ...guard, '--test', '--test-concurrency=2', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
