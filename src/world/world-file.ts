/**
 * A world handed in by an operator or a test, checked before anything starts: as a value (the demo
 * world, the testing kit's) or as a JSON file (`slashd serve --world`). An invalid world is an error
 * listing every problem at its path, so the whole file can be fixed at once.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Issue } from '../core/io/issue.js';
import { readJsonText } from '../core/io/json-text.js';
import { parseWorld } from '../core/world/parse.js';
import type { World } from '../core/world/types.js';
import type { WorldFileSource } from '../core/world/world-change.js';

/** The world `value` describes; throws naming `source` and each problem when it is not one. */
export function readWorld(value: unknown, source: string): World {
  const parsed = parseWorld(value);
  if (parsed.ok) return parsed.value;
  throw new Error(`The world in ${source} is invalid:\n${describeIssues(parsed.issues)}`);
}

function describeIssues(issues: readonly Issue[]): string {
  return issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.code} ${i.message}`).join('\n');
}

/**
 * A world file as `serve --world` takes it: its bytes read and hashed now (with the version of
 * slashd reading them, whose reading of a file may change), checked only if the import needs it.
 */
export function worldFileSource(path: string, readerVersion: string): WorldFileSource {
  const bytes = readFileSync(path);
  const digest = createHash('sha256').update(`slashd ${readerVersion}\n`).update(bytes).digest('hex');
  return { digest, read: () => worldOfText(bytes.toString('utf8'), path) };
}

/** The world of a JSON file; throws naming the file when it is not JSON or not a valid world. */
export function loadWorldFile(path: string): World {
  return worldOfText(readFileSync(path, 'utf8'), path);
}

/** The world of a JSON file's text; throws when it is not JSON or not a valid world. */
function worldOfText(text: string, path: string): World {
  let read;
  try {
    read = readJsonText(text);
  } catch (error) {
    throw new Error(`The world in ${path} is not JSON: ${(error as Error).message}`, { cause: error });
  }
  if (read.ok) return readWorld(read.value, path);
  throw new Error(`The world in ${path} is invalid:\n${describeIssues(read.issues)}`);
}
