/**
 * The house rules about structure are lint rules (eslint.config.js: the layers by file role, the
 * validation entry point that imports alone, and the one way to build an error, spell an issue
 * code, look a token up, shape a result). Each case below is a small module that breaks one rule,
 * linted as if it were a file of src (the text is in memory: no such file exists, so neither tsc
 * nor `npm run lint` sees it) and refused by the expected rule; the accepted cases show the rules
 * leave what the layers allow alone.
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
const STRUCTURE_RULES = new Set(['slashd/layers', 'no-restricted-imports', 'no-restricted-syntax']);

interface Case {
  /** What the module does wrong (or right). */
  name: string;
  /** Where the module pretends to be. */
  file: string;
  code: string;
}

interface Refused extends Case {
  /** `slashd/layers`: the layers; `no-restricted-imports`: slashd/validation imports alone. */
  rule: 'slashd/layers' | 'no-restricted-imports' | 'no-restricted-syntax';
}

const REFUSED: Refused[] = [
  // The layers (docs/architecture.md, "The layers"): the kernel, src/core, is pure.
  {
    name: 'the core imports the store, even a type',
    file: 'src/core/world/reach.ts',
    code: "import type { WorldStore } from '../../store/store.js';\nexport type S = WorldStore;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'the core imports a resource service, even a type',
    file: 'src/core/world/reach.ts',
    code: "import type { WorldService } from '../../resources/world/service.js';\nexport type S = WorldService;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'a module at the top of the core imports the wiring',
    file: 'src/core/reach.ts',
    code: "import { createSlashd } from '../app.js';\nexport const make = createSlashd;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'the core does I/O',
    file: 'src/core/permissions/reach.ts',
    code: "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'the core does I/O through a dynamic import',
    file: 'src/core/permissions/reach.ts',
    code: "export const read = async () => (await import('node:fs')).readFileSync;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'the core opens a socket',
    file: 'src/core/rate-limits/reach.ts',
    code: "import { createConnection } from 'node:net';\nexport const open = createConnection;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'the core takes the whole of node:net',
    file: 'src/core/rate-limits/reach.ts',
    code: "import * as net from 'node:net';\nexport const address = net.isIP;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'the core imports a server package',
    file: 'src/core/commands/reach.ts',
    code: "import Fastify from 'fastify';\nexport const make = Fastify;\n",
    rule: 'slashd/layers',
  },
  // slashd/validation imports alone.
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
  // A resource's rules are pure like the kernel.
  {
    name: "a resource's rules do I/O",
    file: 'src/resources/messages/rules/reach.ts',
    code: "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
    rule: 'slashd/layers',
  },
  {
    name: "a resource's rules import its service",
    file: 'src/resources/pins/rules.ts',
    code: "import { PinsService } from './service.js';\nexport const pins = PinsService;\n",
    rule: 'slashd/layers',
  },
  {
    name: "a resource's rules import its store, even a type",
    file: 'src/resources/reactions/rules.ts',
    code: "import type { ReactionStore } from './store.js';\nexport type S = ReactionStore;\n",
    rule: 'slashd/layers',
  },
  // The stores reach nothing above them.
  {
    name: 'a store imports a service',
    file: 'src/store/sqlite/reach.ts',
    code: "import type { WorldService } from '../../resources/world/service.js';\nexport type S = WorldService;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'the store imports the HTTP layer',
    file: 'src/store/reach.ts',
    code: "import { buildServer } from '../http/server.js';\nexport const build = buildServer;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'the store imports the gateway, even a type',
    file: 'src/store/reach.ts',
    code: "import type { Gateway } from '../gateway/gateway.js';\nexport type G = Gateway;\n",
    rule: 'slashd/layers',
  },
  {
    name: "a resource's store dialect imports a service, even a type",
    file: 'src/resources/members/store.sqlite.ts',
    code: "import type { WorldService } from '../world/service.js';\nexport type S = WorldService;\n",
    rule: 'slashd/layers',
  },
  {
    name: "a resource's store interface imports its routes",
    file: 'src/resources/reactions/store.ts',
    code: "import { reactionRoutes } from './routes.js';\nexport const routes = reactionRoutes;\n",
    rule: 'slashd/layers',
  },
  {
    name: "a resource's rows import the HTTP layer",
    file: 'src/resources/threads/rows.ts',
    code: "import { appOf } from '../../http/guards.js';\nexport const app = appOf;\n",
    rule: 'slashd/layers',
  },
  // Services never reach HTTP nor the gateway, and read stored data through the interfaces.
  {
    name: 'a service imports the HTTP layer',
    file: 'src/resources/messages/reach.ts',
    code: "import { appOf } from '../../http/guards.js';\nexport const app = appOf;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'a service re-exports a part of the HTTP layer',
    file: 'src/resources/messages/reach.ts',
    code: "export { appOf } from '../../http/guards.js';\n",
    rule: 'slashd/layers',
  },
  {
    name: 'a service of a nested folder imports the HTTP layer through a dynamic import',
    file: 'src/resources/oauth2/grants/reach.ts',
    code: "export const load = () => import('../../../http/guards.js');\n",
    rule: 'slashd/layers',
  },
  {
    name: 'a service imports the server package',
    file: 'src/resources/messages/reach.ts',
    code: "import type { FastifyInstance } from 'fastify';\nexport type F = FastifyInstance;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'a service imports the gateway, even a type',
    file: 'src/resources/messages/reach.ts',
    code: "import type { Gateway } from '../../gateway/gateway.js';\nexport type G = Gateway;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'a service names a type of the gateway inline',
    file: 'src/resources/messages/reach.ts',
    code: "export type G = import('../../gateway/gateway.js').Gateway;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'a service imports routes',
    file: 'src/resources/reactions/service.ts',
    code: "import { reactionRoutes } from './routes.js';\nexport const routes = reactionRoutes;\n",
    rule: 'slashd/layers',
  },
  {
    name: "a service imports its resource's wiring",
    file: 'src/resources/reactions/service.ts',
    code: "import { reactions } from './index.js';\nexport const resource = reactions;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'a service imports a store dialect of its resource',
    file: 'src/resources/reactions/service.ts',
    code: "import { SqliteReactionStore } from './store.sqlite.js';\nexport const store = SqliteReactionStore;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'a service takes a type of a database connection',
    file: 'src/resources/reactions/service.ts',
    code: "import type { PostgresConnection } from '../../store/postgres/connection.js';\nexport type C = PostgresConnection;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'a service opens a database with its driver',
    file: 'src/resources/reactions/service.ts',
    code: "import pg from 'pg';\nexport const pool = pg.Pool;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'the world publisher beside the bus (a service) imports the HTTP layer',
    file: 'src/events/world-events.ts',
    code: "import { appOf } from '../http/guards.js';\nexport const app = appOf;\n",
    rule: 'slashd/layers',
  },
  // Routes reach stored data through a service.
  {
    name: 'a route opens the store',
    file: 'src/resources/messages/routes.ts',
    code: "import { SqliteStore } from '../../store/sqlite/sqlite-store.js';\nexport const store = SqliteStore;\n",
    rule: 'slashd/layers',
  },
  {
    name: "a route imports its resource's store dialect, even a type",
    file: 'src/resources/reactions/routes.ts',
    code: "import type { SqliteReactionStore } from './store.sqlite.js';\nexport type S = SqliteReactionStore;\n",
    rule: 'slashd/layers',
  },
  {
    name: "a route takes a value of its resource's store interface",
    file: 'src/resources/members/routes.ts',
    code: "import { BannedUserError } from './store.js';\nexport const error = BannedUserError;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'a route opens a database with its driver',
    file: 'src/resources/channels/edit-routes.ts',
    code: "import Database from 'better-sqlite3';\nexport const open = Database;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'a route imports the gateway itself',
    file: 'src/resources/gateway/routes.ts',
    code: "import { Gateway } from '../../gateway/gateway.js';\nexport const gateway = Gateway;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'a hook of a resource opens the store',
    file: 'src/resources/usage/hook.ts',
    code: "import { SqliteStore } from '../../store/sqlite/sqlite-store.js';\nexport const store = SqliteStore;\n",
    rule: 'slashd/layers',
  },
  // The other layers.
  {
    name: 'the gateway imports the HTTP layer',
    file: 'src/gateway/reach.ts',
    code: "import { buildServer } from '../http/server.js';\nexport const build = buildServer;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'the event bus imports a service',
    file: 'src/events/reach.ts',
    code: "import type { WorldService } from '../resources/world/service.js';\nexport type W = WorldService;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'the delivery takes a type of a store dialect',
    file: 'src/delivery/reach.ts',
    code: "import type { SqliteConnection } from '../store/sqlite/connection.js';\nexport type C = SqliteConnection;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'the HTTP layer imports the command line',
    file: 'src/http/reach.ts',
    code: "import { runServe } from '../cli/serve.js';\nexport const serve = runServe;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'the HTTP layer takes a value of the wiring',
    file: 'src/http/reach.ts',
    code: "import { buildServices } from '../app/services.js';\nexport const build = buildServices;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'the command line reaches a part of the wiring instead of app.js',
    file: 'src/cli/reach.ts',
    code: "import { openStore } from '../app/store.js';\nexport const open = openStore;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'the testing kit imports the server half of the command line',
    file: 'src/testing/reach.ts',
    code: "import { runServe } from '../cli/serve.js';\nexport const serve = runServe;\n",
    rule: 'slashd/layers',
  },
  {
    name: "a resource's wiring imports the command line",
    file: 'src/resources/usage/index.ts',
    code: "import { runServe } from '../../cli/serve.js';\nexport const serve = runServe;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'the client library imports server code',
    file: 'src/sdk/reach.ts',
    code: "import { apiError } from '../core/io/errors.js';\nexport const error = apiError;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'the browser half of the client library imports a Node module',
    file: 'src/sdk/reach.ts',
    code: "import { request } from 'node:http';\nexport const send = request;\n",
    rule: 'slashd/layers',
  },
  {
    name: 'the browser half of the client library imports its Node half',
    file: 'src/sdk/reach.ts',
    code: "import { nodeClient } from './node.js';\nexport const client = nodeClient;\n",
    rule: 'slashd/layers',
  },
  // One way to do each thing.
  {
    name: 'a service builds an ApiError itself',
    file: 'src/resources/messages/reach.ts',
    code: "import { ApiError } from '../../core/io/errors.js';\nexport const error = new ApiError('UnknownMessage');\n",
    rule: 'no-restricted-syntax',
  },
  {
    name: 'a rule spells an issue code',
    file: 'src/core/validation/reach.ts',
    code: "export const code = 'BASE_TYPE_REQUIRED';\n",
    rule: 'no-restricted-syntax',
  },
  {
    name: "a resource's rule spells an issue code",
    file: 'src/resources/messages/rules/reach.ts',
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
    file: 'src/resources/applications/routes.ts',
    code: "import { authenticate } from './principal-lookup.js';\nexport const who = authenticate;\n",
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
    file: 'src/resources/messages/reach.ts',
    code: 'export type Outcome = { ok: false; issues: string[] } | { ok: true; value: number };\n',
    rule: 'no-restricted-syntax',
  },
];

const ACCEPTED: Case[] = [
  {
    name: 'a route takes a stored type and compares secrets in constant time',
    file: 'src/resources/applications/routes.ts',
    code: "import type { IssuedToken } from '../../store/store.js';\nimport { sameSecret } from '../../store/tokens.js';\nexport type T = IssuedToken;\nexport const same = sameSecret;\n",
  },
  {
    name: 'a route uses its service, its rules, another route module, the guards and the server package',
    file: 'src/resources/channels/edit-routes.ts',
    code: "import type { FastifyInstance } from 'fastify';\nimport type { ChannelsService } from './service.js';\nimport { readChannelBody } from './rules/channel-bodies.js';\nimport { channelRoutes } from './routes.js';\nimport { appOf } from '../../http/guards.js';\nimport type { MemberStore } from '../members/store.js';\nexport type S = [FastifyInstance, ChannelsService, MemberStore];\nexport const parts = [readChannelBody, channelRoutes, appOf];\n",
  },
  {
    name: "a resource's hook reads the HTTP layer and takes its service's type",
    file: 'src/resources/usage/hook.ts',
    code: "import { unservedTemplateOf } from '../../http/not-found.js';\nimport type { AppUsageRecorder } from './service.js';\nexport type R = AppUsageRecorder;\nexport const template = unservedTemplateOf;\n",
  },
  {
    name: 'a service uses the core, the store and the bus',
    file: 'src/resources/messages/reach.ts',
    code: "import { apiError } from '../../core/io/errors.js';\nimport type { Store } from '../../store/store.js';\nimport type { EventBus } from '../../events/bus.js';\nexport type S = [Store, EventBus];\nexport const error = apiError;\n",
  },
  {
    name: "a service uses its rules, another resource's service and store interface, and the delivery",
    file: 'src/resources/pins/service.ts',
    code: "import { readPinsQuery } from './rules.js';\nimport { loadMessageContext } from '../messages/context.js';\nimport type { GuildMemberStore } from '../members/store.js';\nimport type { HttpDelivery } from '../../delivery/http-delivery.js';\nimport { sameSecret } from '../../store/tokens.js';\nimport { createHash } from 'node:crypto';\nexport type S = [GuildMemberStore, HttpDelivery];\nexport const parts = [readPinsQuery, loadMessageContext, sameSecret, createHash];\n",
  },
  {
    name: "a resource's rules use the core, another resource's rules and discord-api-types",
    file: 'src/resources/attachments/rules/reach.ts',
    code: "import { MESSAGE_ATTACHMENTS_MAX } from '../../messages/rules/limits.js';\nimport { readString } from '../../../core/io/read.js';\nimport { ComponentType } from 'discord-api-types/v10';\nexport const parts = [MESSAGE_ATTACHMENTS_MAX, readString, ComponentType];\n",
  },
  {
    name: 'the core uses the rules of a resource (both are pure)',
    file: 'src/core/world/reach.ts',
    code: "import { fromWorldMessage } from '../../resources/messages/rules/messages.js';\nexport const from = fromWorldMessage;\n",
  },
  {
    name: "a resource's store interface takes another resource's types and the store's rows",
    file: 'src/resources/threads/store.ts',
    code: "import type { GuildMemberStore } from '../members/store.js';\nimport type { ThreadRules } from './rules/thread-rules.js';\nimport { storedDocument } from '../../store/rows.js';\nexport type S = [GuildMemberStore, ThreadRules];\nexport const read = storedDocument;\n",
  },
  {
    name: "a resource's store dialect uses its connection, its rows and its interface",
    file: 'src/resources/guild-structure/store.sqlite.ts',
    code: "import type { SqliteConnection } from '../../store/sqlite/connection.js';\nimport { structureRow } from './rows.js';\nimport type { GuildStructureStore } from './store.js';\nexport type S = [SqliteConnection, GuildStructureStore];\nexport const row = structureRow;\n",
  },
  {
    name: "the store's dialect composes the resources' dialects",
    file: 'src/store/postgres/reach.ts',
    code: "import { PostgresReactionStore } from '../../resources/reactions/store.postgres.js';\nexport const reactions = PostgresReactionStore;\n",
  },
  {
    name: "a resource's wiring registers its routes and services and the HTTP layer's hooks",
    file: 'src/resources/usage/index.ts',
    code: "import type { Resource } from '../resource.js';\nimport { usageRoutes } from './routes.js';\nimport { AppUsageRecorder } from './service.js';\nimport { authentication } from '../../http/authentication.js';\nexport type R = Resource;\nexport const parts = [usageRoutes, AppUsageRecorder, authentication];\n",
  },
  {
    name: 'the server iterates over the list of resources and takes the parts the wiring made',
    file: 'src/http/server.ts',
    code: "import { RESOURCES } from '../resources/index.js';\nimport type { Services } from '../app/services.js';\nimport { principals } from '../resources/applications/principal-lookup.js';\nexport type S = Services;\nexport const parts = [RESOURCES, principals];\n",
  },
  {
    name: 'the wiring opens a store',
    file: 'src/app/store.ts',
    code: "import { SqliteStore } from '../store/sqlite/sqlite-store.js';\nexport const store = SqliteStore;\n",
  },
  {
    name: 'a test beside its resource opens a store, reads a file and spells the codes it expects',
    file: 'src/resources/pins/reach.test.ts',
    code: "import { readFileSync } from 'node:fs';\nimport { SqliteStore } from '../../store/sqlite/sqlite-store.js';\nimport { buildServer } from '../../http/server.js';\nexport const parts = [readFileSync, SqliteStore, buildServer];\nexport const expected = { ok: false, code: 'BASE_TYPE_REQUIRED' };\n",
  },
  {
    name: 'the command line uses a delivery lookup of a resource and the store',
    file: 'src/cli/reach.ts',
    code: "import { deliveryLookup } from '../resources/gateway/delivery-lookup.js';\nimport { SqliteConnection } from '../store/sqlite/connection.js';\nimport { createSlashd } from '../app.js';\nexport const parts = [deliveryLookup, SqliteConnection, createSlashd];\n",
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
    code: "import { authenticate } from '../resources/applications/principal-lookup.js';\nexport const who = authenticate;\n",
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
