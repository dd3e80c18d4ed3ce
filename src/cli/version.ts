/** slashd's own version, as its package.json says (`slashd --version`). */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest package.json above this file: the repository's, or the installed package's. */
function packageJsonPath(): string | undefined {
  let directory = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(directory, 'package.json');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

export function slashdVersion(): string {
  const path = packageJsonPath();
  if (path === undefined) return 'unknown';
  const read = JSON.parse(readFileSync(path, 'utf8')) as { version?: unknown };
  return typeof read.version === 'string' ? read.version : 'unknown';
}
