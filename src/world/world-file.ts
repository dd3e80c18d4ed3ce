/**
 * A world handed in by an operator or a test, checked before anything starts: as a value (the demo
 * world, the testing kit's) or as a JSON file (`slashd serve --world`). An invalid world is an error
 * listing every problem at its path, so the whole file can be fixed at once.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
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
 * How long after a file's last change its times are trusted to tell a later change apart: a write
 * within the file system clock's granularity of the one before leaves the same times (git's "racy"
 * entries); a file changed this lately is hashed at its next start too.
 */
export const WORLD_FILE_SETTLED_MS = 2_000;

/** The file's mark (WorldFileSource): null while it is too fresh to be trusted. */
function worldFileMark(path: string, readerVersion: string, now: number): string | null {
  const stat = statSync(path, { bigint: true });
  const changedMs = Number(stat.ctimeNs > stat.mtimeNs ? stat.ctimeNs : stat.mtimeNs) / 1e6;
  if (now - changedMs < WORLD_FILE_SETTLED_MS) return null;
  return [readerVersion, stat.dev, stat.ino, stat.size, stat.mtimeNs, stat.ctimeNs].join(':');
}

/**
 * A world file as `serve --world` takes it: its mark (size, times, inode) at once; its bytes read
 * and hashed (with the version of slashd reading them, whose reading of a file may change) only
 * when the mark is not the one recorded at the last import; checked only if the import needs it.
 */
export function worldFileSource(path: string, readerVersion: string, now = Date.now()): WorldFileSource {
  const mark = worldFileMark(path, readerVersion, now);
  let bytes: Buffer | null = null;
  let digest: string | null = null;
  const read = () => (bytes ??= readFileSync(path));
  return {
    mark,
    digest: () => (digest ??= createHash('sha256').update(`slashd ${readerVersion}\n`).update(read()).digest('hex')),
    read: () => worldOfText(read().toString('utf8'), path),
  };
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
