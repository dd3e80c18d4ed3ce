/**
 * `slashd/sdk` as a package subpath: both entries resolve through package.json "exports" (Node's
 * self-reference), and the browser entry's import graph holds no Node module.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

/** The relative and bare specifiers a compiled module imports or re-exports. */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

/** Every module the entry reaches, and every non-relative specifier among them. */
function importGraph(entry: string): { files: string[]; external: string[] } {
  const seen = new Set<string>();
  const external = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of specifiers(file)) {
      if (spec.startsWith('.')) queue.push(join(dirname(file), spec));
      else external.add(spec);
    }
  }
  return { files: [...seen], external: [...external] };
}

test('slashd/sdk and slashd/sdk/node resolve through the package exports', async () => {
  const browser = (await import('slashd/sdk')) as Record<string, unknown>;
  const node = (await import('slashd/sdk/node')) as Record<string, unknown>;
  for (const name of ['Client', 'AuthorizationArgs', 'AuthorizationCodeChallenge', 'browserPopup', 'browserRedirect']) {
    assert.equal(typeof browser[name], 'function', name);
    assert.equal(node[name], browser[name], `slashd/sdk/node re-exports ${name}`);
  }
  assert.equal(typeof node.nodeLoopback, 'function');
  assert.equal(browser.nodeLoopback, undefined);
});

test('the browser entry imports no Node module, not even through another file', () => {
  const entry = fileURLToPath(import.meta.resolve('slashd/sdk'));
  const { files, external } = importGraph(entry);
  assert.ok(files.length >= 5, `the graph was read (${files.length} files)`);
  assert.deepEqual(external, []);
  const node = importGraph(fileURLToPath(import.meta.resolve('slashd/sdk/node')));
  assert.ok(node.external.includes('node:http'), 'the Node entry is the one that imports node:http');
});
