/**
 * The validation module's public API (`slashd/validation`) and its codes' documentation. That it
 * stands alone (no package, no Node module, nothing of the server) is a lint rule
 * (eslint.config.js, `validationStandsAlone`; test/lint-layers.test.ts).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
