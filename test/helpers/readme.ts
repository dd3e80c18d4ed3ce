/** The README's code blocks, so the tests run what a reader copies. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './openapi.js';

export function readmeText(): string {
  return readFileSync(join(repoRoot(), 'README.md'), 'utf8');
}

/** The README's fenced block in `language` that contains `marker`. */
export function readmeBlock(language: string, marker: string): string {
  const fence = '```';
  const blocks = readmeText()
    .split(`${fence}${language}\n`)
    .slice(1)
    .map((rest) => rest.slice(0, rest.indexOf(fence)));
  const found = blocks.find((block) => block.includes(marker));
  assert.ok(found, `the README has a ${language} block with ${marker}`);
  return found;
}
