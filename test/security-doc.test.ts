/**
 * docs/security.md stays true of the code it names: every constant it cites is still declared in
 * src (an error code or a setting still read), and every file it points to still exists. A rename or
 * a removal that leaves the threat model describing what is gone fails here.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from './helpers/openapi.js';

const doc = readFileSync(join(repoRoot(), 'docs/security.md'), 'utf8');

function sourcesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourcesOf(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

const source = sourcesOf(join(repoRoot(), 'src')).join('\n');

/** A constant the code declares, an error code it names, or a setting it reads from the environment. */
function isInCode(name: string): boolean {
  return [`\\bconst\\s+${name}\\b`, `['"]${name}['"]`, `\\b${name}:`, `\\benv\\.${name}\\b`].some((pattern) =>
    new RegExp(pattern).test(source),
  );
}

describe('docs/security.md names what exists', () => {
  it('every constant it cites is in the code', () => {
    const names = [...new Set([...doc.matchAll(/`([A-Z][A-Z0-9_]{3,})`/g)].map((match) => match[1]!))];
    assert.ok(names.length > 30, `the bounds table cites its constants (${names.length} found)`);
    assert.deepEqual(
      names.filter((name) => !isInCode(name)),
      [],
    );
  });

  it('every file and folder it points to exists', () => {
    const paths = [...new Set([...doc.matchAll(/`((?:src|test)\/[^`\s]+)`/g)].map((match) => match[1]!))];
    assert.ok(paths.length > 20, `the doc points to its sources and tests (${paths.length} found)`);
    assert.deepEqual(
      paths.filter((path) => !existsSync(join(repoRoot(), path))),
      [],
    );
  });
});
