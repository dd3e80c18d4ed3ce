// Runs every compiled test file (dist/test/**/*.test.js, and those beside their resource in dist/src) with node's test runner.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function findTests(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return findTests(path);
    return name.endsWith('.test.js') ? [path] : [];
  });
}

const only = process.argv.slice(2);
const files = [...findTests('dist/test'), ...findTests('dist/src')]
  .filter((file) => only.length === 0 || only.some((pattern) => file.includes(pattern)))
  .sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--enable-source-maps', '--test', '--test-concurrency=2', ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
