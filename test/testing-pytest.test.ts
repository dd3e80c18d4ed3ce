/**
 * The pytest example of docs/testing.md (examples/pytest): its conftest starts `slashd serve --db
 * :memory: --world world.json` from this repository's bin, a discord.py bot (Debian's
 * python3-discord) answers /ping through the gateway, and a snapshot restored before each test keeps
 * the tests apart. Run with the system interpreter; all 3 tests must pass.
 */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { ROOT } from './helpers/cli-process.js';

const PYTHON = '/usr/bin/python3';
const run = promisify(execFile);
/** A bound for the whole pytest run: slashd's start, discord.py's login and three tests. */
const RUN_TIMEOUT_MS = 240_000;

describe('the pytest example with discord.py', () => {
  test('pytest passes its 3 tests against slashd serve with snapshots', async () => {
    const probe = spawnSync(PYTHON, ['-c', 'import discord, pytest'], { encoding: 'utf8' });
    assert.equal(probe.status, 0, `install python3-pytest and python3-discord: ${probe.stderr}`);
    let output: string;
    let code = 0;
    try {
      const done = await run(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], {
        cwd: join(ROOT, 'examples', 'pytest'),
        timeout: RUN_TIMEOUT_MS,
        env: {
          ...process.env,
          PYTHONDONTWRITEBYTECODE: '1',
          SLASHD_COMMAND: `${process.execPath} ${join(ROOT, 'bin', 'slashd.js')}`,
        },
      });
      output = done.stdout + done.stderr;
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      code = typeof failed.code === 'number' ? failed.code : -1;
      output = `${failed.stdout}${failed.stderr}`;
    }
    assert.equal(code, 0, output);
    assert.match(output, /\b3 passed\b/, output);
  });
});
