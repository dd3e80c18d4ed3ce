/**
 * The package as a user installs it: `npm pack`, the tarball installed in an empty folder, then
 * `slashd serve` from that install and `import('slashd')`. Slow (better-sqlite3 is built for the
 * install unless a prebuilt binary can be had), so it is one test file with a generous safety net.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { ROOT } from './helpers/cli-process.js';

const run = promisify(execFile);
/** Safety net for packing and installing, which builds a native addon on a loaded machine. */
const INSTALL_WAIT_MS = 15 * 60_000;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('the packed package', { timeout: INSTALL_WAIT_MS }, () => {
  let dir: string;
  let consumer: string;
  let tarball: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slashd-pack-'));
    // The repository's own build is already in dist/: pack it without running the build again.
    await run(npm, ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    const packed = readdirSync(dir).find((name) => name.endsWith('.tgz'));
    assert.ok(packed, 'npm pack wrote no tarball');
    tarball = join(dir, packed);
    consumer = join(dir, 'consumer');
    await run('mkdir', ['-p', consumer]);
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], {
      cwd: consumer,
      maxBuffer: 64 * 1024 * 1024,
    });
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  test('ships the built code, the CLI and the docs, but no tests or benches', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball], { maxBuffer: 16 * 1024 * 1024 });
    const files = stdout.split('\n');
    assert.ok(files.includes('package/dist/src/index.js'));
    assert.ok(files.includes('package/bin/slashd.js'));
    assert.ok(files.includes('package/LICENSE'));
    assert.equal(files.filter((file) => /^package\/(dist\/)?(test|bench)\//.test(file)).length, 0);
    // Tests beside their resource compile into dist/src: neither they nor their maps and types ship.
    assert.deepEqual(
      files.filter((file) => /^package\/dist\/src\/.*\.test\./.test(file)),
      [],
    );
    assert.ok(files.includes('package/dist/src/resources/world/service.js'), 'the resources ship');
  });

  test('import("slashd") gives createSlashd and the validation entry', async () => {
    const script =
      "const m = await import('slashd'); const v = await import('slashd/validation'); console.log(JSON.stringify({ createSlashd: typeof m.createSlashd, parseWorld: typeof m.parseWorld, validate: typeof v.validateBulkOverwrite }));";
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer });
    assert.deepEqual(JSON.parse(stdout), { createSlashd: 'function', parseWorld: 'function', validate: 'function' });
  });

  test('slashd serve from the install answers on loopback', async () => {
    const bin = join(consumer, 'node_modules', '.bin', 'slashd');
    assert.ok(existsSync(bin), 'the install has no slashd bin');
    const child = spawn(bin, ['serve', '--port', '0', '--db', ':memory:', '--demo', '--log-format', 'json'], {
      cwd: consumer,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8');
          // With --log-format json the banner is a JSON line: the URL ends at its closing quote.
          const match = /listening on (http:[^\s"]+)/.exec(out);
          if (match) resolve(match[1]!);
        });
        child.on('exit', (code) => reject(new Error(`slashd exited (${code}) before listening: ${out}`)));
      });
      const health = await fetch(`${url}/healthz`);
      assert.equal(health.status, 200);
      assert.equal(health.headers.get('content-type'), 'application/json');
      const me = await fetch(`${url}/api/v10/users/@me`);
      assert.equal(me.status, 401);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
