/**
 * `slashd/testing` under Vitest and Jest: each small project (test/kit-vitest, test/kit-jest, its
 * own config, importing the built kit as `slashd/testing`) runs the example discord.js bot's tests
 * in a child process; each must exit 0 with all seven tests passed (/ping, a button, a 429 burst, a
 * gateway RECONNECT, two that show isolation, and a scenario file replayed).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { repoRoot } from './helpers/openapi.js';

const run = promisify(execFile);
const ROOT = repoRoot();
/** A bound for a whole child run: start-up of the runner, a sandbox and a discord.js login. */
const RUN_TIMEOUT_MS = 240_000;

async function runIn(folder: string, args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, args, {
      cwd: join(ROOT, 'test', folder),
      timeout: RUN_TIMEOUT_MS,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, output: `${failed.stdout}${failed.stderr}` };
  }
}

describe('slashd/testing under other test runners', () => {
  test('Vitest runs the project of test/kit-vitest: 7 passed', async () => {
    const { code, output } = await runIn('kit-vitest', [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run']);
    assert.equal(code, 0, output);
    assert.match(output, /Tests\s+7 passed \(7\)/, output);
  });

  test('Jest (native ESM) runs the project of test/kit-jest: 7 passed', async () => {
    const { code, output } = await runIn('kit-jest', [
      '--experimental-vm-modules',
      join(ROOT, 'node_modules/jest/bin/jest.js'),
    ]);
    assert.equal(code, 0, output);
    assert.match(output, /Tests:\s+7 passed, 7 total/, output);
  });
});
