// The fast tier (`npm run test:fast`): the compiled test files that start no process, browser or
// socket. A test file says what it starts by what it imports, so the tier is read from its imports
// (and, transitively, those of the test helpers and fixtures it uses) rather than kept by hand: a
// new test that imports `startServer` or `pg` is slow the day it is written. The product modules it
// imports (dist/src) are not followed: importing the app starts nothing until a test listens, and
// `fast-tier-guard.js` fails any fast test that does.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Modules whose import means the test starts something: a process, a socket, a browser, a real service's client. */
const STARTS_SOMETHING = new Set([
  // processes and sockets
  'child_process',
  'cluster',
  'dgram',
  'http',
  'http2',
  'https',
  'net',
  'tls',
  'worker_threads',
  'ws',
  // browsers
  'playwright-core',
  '@axe-core/playwright',
  // real PostgreSQL and Redis
  'pg',
  'ioredis',
  // client libraries that connect to a listening slashd
  'discord.js',
  '@discordjs/core',
  '@discordjs/rest',
  '@discordjs/ws',
  'eris',
  'seyfert',
]);

/** Exports of test helpers that start something, in helpers that also export what does not (`injectServer`). */
const STARTING_EXPORTS = new Map([['dist/test/helpers/server.js', new Set(['startServer'])]]);

/** Where the followed modules live: the tests, their helpers and fixtures (not the product in dist/src). */
const FOLLOWED = 'dist/test/';

/** `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')` in compiled JavaScript. */
const IMPORT =
  /(?:^|\n)[ \t]*(?:import|export)\s+(?:type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|(?:^|\n)[ \t]*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** `{ a, b as c }` of an import clause: the exported names it takes (`a`, `b`). */
function importedNames(clause) {
  const braces = /\{([^}]*)\}/.exec(clause ?? '');
  if (!braces) return [];
  return braces[1]
    .split(',')
    .map((part) => part.trim().split(/\s+as\s+/)[0])
    .filter(Boolean);
}

/** Each import of `file`: the specifier and the names it takes. */
function importsOf(file) {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((match) => ({
    specifier: match[2] ?? match[3] ?? match[4],
    names: importedNames(match[1]),
  }));
}

/** `node:net` and `net` are one module; `@discordjs/rest/x` and `pg/lib` are their package. */
function packageOf(specifier) {
  const bare = specifier.replace(/^node:/, '');
  const parts = bare.split('/');
  return bare.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Why `file` (a compiled test or helper) starts something, or null; follows the modules under `FOLLOWED`. */
function whatStarts(file, seen = new Set()) {
  if (seen.has(file)) return null;
  seen.add(file);
  for (const { specifier, names } of importsOf(file)) {
    if (!specifier.startsWith('.')) {
      if (STARTS_SOMETHING.has(packageOf(specifier))) return `${file} imports ${specifier}`;
      continue;
    }
    const target = relative('.', resolve(dirname(file), specifier));
    const starting = names.filter((name) => STARTING_EXPORTS.get(target)?.has(name));
    if (starting.length > 0) return `${file} imports ${starting.join(', ')} from ${target}`;
    if (target.startsWith(FOLLOWED) && existsSync(target)) {
      const reason = whatStarts(target, seen);
      if (reason) return reason;
    }
  }
  return null;
}

/** Whether a compiled test file belongs to the fast tier. */
export function isFast(file) {
  return whatStarts(file) === null;
}

/** The module `run-tests.js --fast` preloads into every test process of the tier. */
export const FAST_TIER_GUARD = join(dirname(fileURLToPath(import.meta.url)), 'fast-tier-guard.js');
