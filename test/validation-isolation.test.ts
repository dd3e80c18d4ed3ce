/**
 * The validation module stands alone: bot authors import it offline, so its import graph may reach
 * only itself and the three pure shared modules, with no Node built-ins and no packages.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as validation from '../src/core/validation/index.js';
import { VALIDATION_CODES } from '../src/core/io/codes.js';

/** The repository root: these tests also run compiled, from dist/test, where there are no sources. */
function repoRoot(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(directory, 'package.json'))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error('package.json not found');
    directory = parent;
  }
  return directory;
}

const ROOT = repoRoot();
const SRC = join(ROOT, 'src');
const VALIDATION_DIR = join(SRC, 'core/validation');
/** core/io is the shared vocabulary (issues, codes, readers, results, errors): pure, no I/O. */
const ALLOWED_DIRS = ['core/validation/', 'core/io/'];
const ALLOWED_OUTSIDE = new Set(['core/snowflake.ts', 'core/commands/model.ts', 'core/locales.ts', 'core/records.ts']);
const IMPORT = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((match) => match[1] ?? match[2] ?? '');
}

function reachable(): Set<string> {
  const seen = new Set<string>();
  const pending = readdirSync(VALIDATION_DIR)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(VALIDATION_DIR, f));
  while (pending.length > 0) {
    const file = pending.pop();
    if (file === undefined || seen.has(file)) continue;
    seen.add(file);
    for (const specifier of importsOf(file)) {
      assert.ok(
        specifier.startsWith('.'),
        `${relative(SRC, file)} imports ${specifier}: only relative imports are allowed`,
      );
      pending.push(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
    }
  }
  return seen;
}

test('the import graph stays inside validation and the pure shared modules', () => {
  for (const file of reachable()) {
    const path = relative(SRC, file).split('\\').join('/');
    assert.ok(
      ALLOWED_DIRS.some((dir) => path.startsWith(dir)) || ALLOWED_OUTSIDE.has(path),
      `validation reaches ${path}`,
    );
  }
});

test('the public API', () => {
  assert.equal(typeof validation.validateCreateCommand, 'function');
  assert.equal(typeof validation.validatePatchCommand, 'function');
  assert.equal(typeof validation.validateBulkOverwrite, 'function');
  assert.equal(typeof validation.findTypeCountOverflow, 'function');
  assert.equal(validation.limits.OPTIONS_PER_LEVEL_MAX, 25);
  assert.equal(validation.codes.APPLICATION_COMMAND_TOO_LARGE, 'APPLICATION_COMMAND_TOO_LARGE');
});

test('every code is documented in docs/errors.md', () => {
  const docs = readFileSync(join(ROOT, 'docs/errors.md'), 'utf8');
  for (const code of VALIDATION_CODES)
    assert.ok(docs.includes(`\`${code}\``), `${code} is missing from docs/errors.md`);
  assert.equal(new Set(VALIDATION_CODES).size, VALIDATION_CODES.length);
});
