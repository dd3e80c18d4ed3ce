/**
 * The house rules about structure are lint rules (eslint.config.js: the layers, and the one way
 * to build an error, spell an issue code, look a token up, shape a result). Each case below is a
 * small module that breaks one rule, linted as if it were a file of src (the text is in memory: no
 * such file exists, so neither tsc nor `npm run lint` sees it) and refused by the expected rule;
 * the accepted cases show the rules leave what the layers allow alone.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

/** The repository root: the tests run compiled, from dist/test. */
function repoRoot(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(directory, 'eslint.config.js'))) directory = dirname(directory);
  return directory;
}

/** The structure rules; the type-aware rules need a program of real files, and are not under test here. */
const STRUCTURE_RULES = new Set(['no-restricted-imports', 'no-restricted-syntax']);

interface Case {
  /** What the module does wrong (or right). */
  name: string;
  /** Where the module pretends to be. */
  file: string;
  code: string;
}

interface Refused extends Case {
  rule: 'no-restricted-imports' | 'no-restricted-syntax';
}

const REFUSED: Refused[] = [
  // The layers (docs/architecture.md, "The layers").
  {
    name: 'the core imports the store, even a type',
    file: 'src/core/world/reach.ts',
    code: "import type { WorldStore } from '../../store/store.js';\nexport type S = WorldStore;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'a module at the top of the core imports the wiring',
    file: 'src/core/reach.ts',
    code: "import { createSlashd } from '../app.js';\nexport const make = createSlashd;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'the core does I/O',
    file: 'src/core/permissions/reach.ts',
    code: "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'the core opens a socket',
    file: 'src/core/rate-limits/reach.ts',
    code: "import { createConnection } from 'node:net';\nexport const open = createConnection;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'the core imports a server package',
    file: 'src/core/commands/reach.ts',
    code: "import Fastify from 'fastify';\nexport const make = Fastify;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'validation reaches the world model (slashd/validation must import alone)',
    file: 'src/core/validation/reach.ts',
    code: "import { parseWorld } from '../world/parse.js';\nexport const parse = parseWorld;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'validation imports a package',
    file: 'src/core/validation/reach.ts',
    code: "import secureJson from 'secure-json-parse';\nexport const parse = secureJson.parse;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'the shared vocabulary validation uses reaches the JSON text reader (and its package)',
    file: 'src/core/io/reach.ts',
    code: "import { readJsonText } from './json-text.js';\nexport const read = readJsonText;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'a store imports a service',
    file: 'src/store/sqlite/reach.ts',
    code: "import type { WorldService } from '../../services/world-service.js';\nexport type S = WorldService;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'the store imports the HTTP layer',
    file: 'src/store/reach.ts',
    code: "import { buildServer } from '../http/server.js';\nexport const build = buildServer;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'a service imports the HTTP layer',
    file: 'src/services/reach.ts',
    code: "import { appOf } from '../http/guards.js';\nexport const app = appOf;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'a service imports the gateway, even a type',
    file: 'src/services/reach.ts',
    code: "import type { Gateway } from '../gateway/gateway.js';\nexport type G = Gateway;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'a route opens the store',
    file: 'src/http/routes/reach.ts',
    code: "import { SqliteStore } from '../../store/sqlite/sqlite-store.js';\nexport const store = SqliteStore;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'a route imports the gateway itself',
    file: 'src/http/routes/reach.ts',
    code: "import { Gateway } from '../../gateway/gateway.js';\nexport const gateway = Gateway;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'the gateway imports the HTTP layer',
    file: 'src/gateway/reach.ts',
    code: "import { buildServer } from '../http/server.js';\nexport const build = buildServer;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'the event bus imports a service',
    file: 'src/events/reach.ts',
    code: "import type { WorldEvents } from '../services/world-events.js';\nexport type W = WorldEvents;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'the HTTP layer imports the command line',
    file: 'src/http/reach.ts',
    code: "import { runServe } from '../cli/serve.js';\nexport const serve = runServe;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'the command line reaches a part of the wiring instead of app.js',
    file: 'src/cli/reach.ts',
    code: "import { openStore } from '../app/store.js';\nexport const open = openStore;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'the testing kit imports the server half of the command line',
    file: 'src/testing/reach.ts',
    code: "import { runServe } from '../cli/serve.js';\nexport const serve = runServe;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'the client library imports server code',
    file: 'src/sdk/reach.ts',
    code: "import { apiError } from '../core/io/errors.js';\nexport const error = apiError;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'the browser half of the client library imports a Node module',
    file: 'src/sdk/reach.ts',
    code: "import { request } from 'node:http';\nexport const send = request;\n",
    rule: 'no-restricted-imports',
  },
  // One way to do each thing.
  {
    name: 'a service builds an ApiError itself',
    file: 'src/services/reach.ts',
    code: "import { ApiError } from '../core/io/errors.js';\nexport const error = new ApiError('UnknownMessage');\n",
    rule: 'no-restricted-syntax',
  },
  {
    name: 'a rule spells an issue code',
    file: 'src/core/validation/reach.ts',
    code: "export const code = 'BASE_TYPE_REQUIRED';\n",
    rule: 'no-restricted-syntax',
  },
  {
    name: 'a type spells an issue code',
    file: 'src/core/interactions/reach.ts',
    code: 'export type Code = "APPLICATION_COMMAND_TOO_LARGE";\n',
    rule: 'no-restricted-syntax',
  },
  {
    name: 'a route imports authenticate',
    file: 'src/http/routes/reach.ts',
    code: "import { authenticate } from '../../services/principal-lookup.js';\nexport const who = authenticate;\n",
    rule: 'no-restricted-syntax',
  },
  {
    name: 'a guard calls authenticate',
    file: 'src/http/reach.ts',
    code: 'declare function authenticate(header: string): unknown;\nexport const who = authenticate("Bot x");\n',
    rule: 'no-restricted-syntax',
  },
  {
    name: 'a parser returns its own ok/value shape',
    file: 'src/core/world/reach.ts',
    code: 'export const read = (value: number) => ({ ok: true, value });\n',
    rule: 'no-restricted-syntax',
  },
  {
    name: 'a service declares its own ok/issues type',
    file: 'src/services/reach.ts',
    code: 'export type Outcome = { ok: false; issues: string[] } | { ok: true; value: number };\n',
    rule: 'no-restricted-syntax',
  },
];

const ACCEPTED: Case[] = [
  {
    name: 'a route takes a stored type and compares secrets in constant time',
    file: 'src/http/routes/reach.ts',
    code: "import type { IssuedToken } from '../../store/store.js';\nimport { sameSecret } from '../../store/tokens.js';\nexport type T = IssuedToken;\nexport const same = sameSecret;\n",
  },
  {
    name: 'a service uses the core, the store and the bus',
    file: 'src/services/reach.ts',
    code: "import { apiError } from '../core/io/errors.js';\nimport type { Store } from '../store/store.js';\nimport type { EventBus } from '../events/bus.js';\nexport type S = [Store, EventBus];\nexport const error = apiError;\n",
  },
  {
    name: 'validation reads values with the shared reader and names codes by constant',
    file: 'src/core/validation/reach.ts',
    code: "import { readString } from '../io/read.js';\nimport { BASE_TYPE_REQUIRED } from '../io/codes.js';\nexport const read = [readString, BASE_TYPE_REQUIRED];\n",
  },
  {
    name: 'the core hashes with node:crypto',
    file: 'src/core/oauth2/reach.ts',
    code: "import { createHash } from 'node:crypto';\nexport const hash = createHash;\n",
  },
  {
    name: 'the core tells an IP address from a name',
    file: 'src/core/rate-limits/reach.ts',
    code: "import { isIP, isIPv6 } from 'node:net';\nexport const address = [isIP, isIPv6];\n",
  },
  {
    name: 'the gateway takes a type of the HTTP layer',
    file: 'src/gateway/reach.ts',
    code: "import type { TrustProxy } from '../http/server.js';\nexport type T = TrustProxy;\n",
  },
  {
    name: 'the Node half of the client library uses node:http',
    file: 'src/sdk/node.ts',
    code: "import { request } from 'node:http';\nexport const send = request;\n",
  },
  {
    name: 'the registry spells its codes',
    file: 'src/core/io/codes.ts',
    code: "export const BASE_TYPE_REQUIRED = 'BASE_TYPE_REQUIRED';\n",
  },
  {
    name: 'the one Result is built in result.ts',
    file: 'src/core/io/result.ts',
    code: 'export type Ok<T> = { ok: true; value: T };\nexport const ok = <T>(value: T): Ok<T> => ({ ok: true, value });\n',
  },
  {
    name: 'the authentication hook calls authenticate',
    file: 'src/http/authentication.ts',
    code: "import { authenticate } from '../services/principal-lookup.js';\nexport const who = authenticate;\n",
  },
];

describe('the structure rules in eslint.config.js', () => {
  let eslint: ESLint;

  before(() => {
    eslint = new ESLint({
      cwd: repoRoot(),
      // The text is no file of the TypeScript project: parse it without type information.
      overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
      ruleFilter: ({ ruleId }) => STRUCTURE_RULES.has(ruleId),
    });
  });

  async function ruleIdsOf({ file, code }: Case): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: file, warnIgnored: true });
    assert.ok(result, `a result for ${file}`);
    const fatal = result.messages.filter((message) => message.fatal === true);
    assert.deepEqual(fatal, [], `${file} parses`);
    return [...new Set(result.messages.map((message) => message.ruleId ?? ''))];
  }

  for (const refused of REFUSED) {
    test(`refuses: ${refused.name} (${refused.file})`, async () => {
      assert.deepEqual(await ruleIdsOf(refused), [refused.rule]);
    });
  }

  for (const accepted of ACCEPTED) {
    test(`accepts: ${accepted.name} (${accepted.file})`, async () => {
      assert.deepEqual(await ruleIdsOf(accepted), []);
    });
  }
});
