/**
 * One vocabulary across src: the one Result (src/core/io/result.ts) and the issue codes by their
 * constants (src/core/io/codes.ts), never redeclared or spelled as literals elsewhere.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as codes from '../src/core/io/codes.js';

function repoRoot(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(directory, 'package.json'))) directory = dirname(directory);
  return directory;
}

const SRC = join(repoRoot(), 'src');

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const FILES = sourceFiles(SRC).map((file) => ({
  path: relative(SRC, file).split('\\').join('/'),
  text: readFileSync(file, 'utf8'),
}));

describe('one vocabulary', () => {
  it('declares the ok/value/issues outcome once', () => {
    for (const { path, text } of FILES) {
      if (path === 'core/io/result.ts') continue;
      // The client library runs in browsers apart from the server: it imports none of the server's
      // modules, and its failures are the spec's ClientResult, not field issues.
      if (path.startsWith('sdk/')) continue;
      assert.ok(!/ok: (true|false)/.test(text), `${path} declares its own ok/ok:false shape`);
    }
  });

  it('spells every issue code only in core/io/codes.ts', () => {
    const names = (Object.values(codes) as unknown[]).filter((value): value is string => typeof value === 'string');
    assert.ok(names.length > 60);
    for (const { path, text } of FILES) {
      if (path === 'core/io/codes.ts') continue;
      for (const code of names) assert.ok(!text.includes(`'${code}'`), `${path} spells '${code}' as a literal`);
    }
  });
});
