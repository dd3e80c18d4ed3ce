// ESLint: the rules that catch bugs the compiler does not (a promise nobody awaits, `any` leaking
// into typed code, loose equality, a switch that forgets a case). Layout is Prettier's job:
// eslint-config-prettier comes last and turns off every rule that would disagree with it.
// Why this set and not another: docs/decisions.md, "Tooling". The house rules about structure
// (which layer imports which, the one way to build an error) are lint rules too, at the end, so
// the editor shows them where they are broken (docs/architecture.md).
import { readFileSync } from 'node:fs';
import { posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** The repository root, where this file is: the layers read paths relative to it. */
const ROOT = fileURLToPath(new URL('.', import.meta.url));

/** Single files whose role neither their folder nor their name tells (paths relative to src). */
const FILE_ROLES = {
  // Publishes every service's changes of the world, loading what a message renders from the
  // stores: a service that lives beside the bus it publishes on.
  'events/world-events.ts': 'service',
  // The HTML of the authorization pages, which only their page routes send.
  'resources/oauth2/page-views.ts': 'routes',
  // The body parser of a world in lines (a Fastify content-type parser), which only the world's routes use.
  'resources/world/world-lines.ts': 'routes',
  // The client library's Node half (`slashd/sdk/node`).
  'sdk/node.ts': 'sdk-node',
};

/** The files at the top of src: the wiring (`app.ts`, its parts in app/, and `index.ts`). */
const TOP_FILES = { 'app.ts': 'app', 'index.ts': 'app' };

/** The horizontal folders of src: each is one role (the kernel is src/core; the store's dialects aside). */
const FOLDER_ROLES = {
  core: 'kernel',
  store: 'store',
  events: 'events',
  metrics: 'metrics',
  faults: 'faults',
  'rate-limits': 'rate-limits',
  world: 'world',
  delivery: 'delivery',
  gateway: 'gateway',
  http: 'http',
  cli: 'cli',
  testing: 'testing',
  sdk: 'sdk',
  app: 'app',
};

/** The folders of the store that speak one database: what only the stores themselves open. */
const STORE_DIALECT_FOLDERS = ['sqlite', 'postgres'];

/** Where each role lives, for the messages; a horizontal role not listed is its folder, src/<role>/. */
const ROLE_PLACES = {
  kernel: 'src/core/',
  rules: "a resource's rules.ts or rules/",
  store: 'src/store/',
  'store-dialect': 'src/store/sqlite/ or src/store/postgres/',
  'resource-store': "a resource's store.ts or rows.ts",
  'resource-dialect': "a resource's *.sqlite.ts or *.postgres.ts",
  service: "a resource's other modules",
  routes: "a resource's routes.ts, *-routes.ts or hook.ts",
  'resource-index': "a resource's index.ts, src/resources/index.ts or resource.ts",
  'sdk-node': 'src/sdk/node.ts',
  app: 'src/app.ts, src/app/, src/index.ts',
  test: '*.test.ts',
};

/**
 * The role of a file of a resource (its path below src/resources/<name>/), told by its name: the
 * rules (pure), the store (the interface and row helpers, and the dialects), the HTTP face (routes
 * and hooks), the wiring (`index.ts`), and services for everything else.
 */
function resourceFileRole(inside) {
  const name = inside.join('/');
  const file = inside.at(-1);
  if (name === 'index.ts') return 'resource-index';
  if (name === 'rules.ts' || inside[0] === 'rules') return 'rules';
  if (/\.(?:sqlite|postgres)\.ts$/.test(file)) return 'resource-dialect';
  if (name === 'store.ts' || name === 'rows.ts') return 'resource-store';
  if (inside.length === 1 && /^(?:(?:.+-)?routes|(?:.+-)?hook)\.ts$/.test(file)) return 'routes';
  return 'service';
}

/**
 * The role of a file of src (`path` relative to src): docs/architecture.md, "The layers". Tests
 * are free; null is a file of no layer (it is not checked, and nothing checked may import it).
 */
function roleOf(path) {
  if (path.endsWith('.test.ts')) return 'test';
  if (FILE_ROLES[path]) return FILE_ROLES[path];
  const [folder, ...rest] = path.split('/');
  if (rest.length === 0) return TOP_FILES[folder] ?? null;
  // src/resources/index.ts (the list) and resource.ts (the shape of one) wire the resources too.
  if (folder === 'resources') return rest.length === 1 ? 'resource-index' : resourceFileRole(rest.slice(1));
  if (folder === 'store' && rest.length > 1 && STORE_DIALECT_FOLDERS.includes(rest[0])) return 'store-dialect';
  return FOLDER_ROLES[folder] ?? null;
}

/** Every role a file of src may have (`app`, the wiring, and `test` are free: they import anything). */
const ROLES = [
  ...['kernel', 'rules', 'store', 'store-dialect', 'resource-store', 'resource-dialect'],
  ...['service', 'routes', 'resource-index', 'events', 'metrics', 'faults', 'rate-limits', 'world'],
  ...['delivery', 'gateway', 'http', 'cli', 'testing', 'sdk', 'sdk-node', 'app', 'test'],
];

/** Pure code: the kernel and each resource's rules (no I/O, nothing of the server). */
const PURE = ['kernel', 'rules'];
/** Every store: the horizontal one, its dialects, and each resource's store files. */
const STORES = ['store', 'store-dialect', 'resource-store', 'resource-dialect'];
/** The stores without a dialect: the interfaces and the helpers that run on either database. */
const STORE_INTERFACES = ['store', 'resource-store'];
/** The resources as the server sees them: their services, routes and wiring. */
const SERVED = ['service', 'routes', 'resource-index'];

/** The packages of the HTTP server and the gateway's sockets. */
const HTTP_PACKAGES = ['fastify', '@fastify/', 'ws'];
/** The database drivers: only the dialects (and the wiring) open a database. */
const DATABASE_DRIVERS = ['better-sqlite3', 'pg'];

/** The packages pure code may import: nothing that does I/O. */
const PURE_PACKAGES = {
  packages: ['node:crypto', 'secure-json-parse', 'discord-api-types/'],
  // Pure functions of an I/O module: what an address is, without opening anything.
  pureParts: { 'node:net': ['isIP', 'isIPv4', 'isIPv6'] },
};

/** Every store file imports only pure code and other stores: never a service, a route, HTTP or the gateway. */
const STORE_LAYER = { values: [...PURE, ...STORES] };

/**
 * What a file of each role imports (docs/architecture.md, "The layers"): `values` are the roles
 * (or files and folders of src, `src/store/tokens.ts`, `src/cli/invoke/`) it may import anything
 * from, `types` those it may take types from only. `packages`: the only non-relative imports the
 * role may make (when given), `pureParts` the names it may take from a module otherwise refused;
 * `refusedPackages` the packages it may not import at all (a name, or a prefix ending in `/`).
 * The wiring (`app`) and the tests are free; the CLI and the testing kit reach the wiring only
 * through `app.ts`.
 */
const LAYERS = {
  kernel: { values: PURE, ...PURE_PACKAGES },
  rules: { values: PURE, ...PURE_PACKAGES },
  store: STORE_LAYER,
  // The entry points of each dialect collect every resource's dated migrations from the list.
  'store-dialect': { values: [...PURE, ...STORES, 'src/resources/index.ts'] },
  'resource-store': STORE_LAYER,
  'resource-dialect': STORE_LAYER,
  // What a service asks the gateway is a core interface (core/gateway/presence.ts), never the
  // gateway; it serves no HTTP, and reads stored data through the store's interfaces.
  service: {
    values: [...PURE, ...STORE_INTERFACES, 'service', 'delivery', 'events', 'faults', 'metrics'],
    refusedPackages: [...HTTP_PACKAGES, ...DATABASE_DRIVERS],
  },
  // Routes reach stored data through a service; the constant-time comparison is the one exception.
  routes: {
    values: [...PURE, 'http', 'service', 'routes', 'src/store/tokens.ts'],
    types: [...STORE_INTERFACES, 'gateway'],
    refusedPackages: DATABASE_DRIVERS,
  },
  // A resource's wiring builds its services and registers its routes: anything but the clients.
  'resource-index': { values: ROLES.filter((role) => !['cli', 'testing', 'test'].includes(role)) },
  events: { values: [...PURE, 'events'] },
  metrics: { values: [...PURE, 'metrics'] },
  faults: { values: [...PURE, 'faults'] },
  'rate-limits': { values: [...PURE, 'rate-limits'] },
  world: { values: [...PURE, 'world'] },
  delivery: { values: [...PURE, 'delivery', 'metrics'], types: STORE_INTERFACES },
  gateway: { values: [...PURE, ...STORES, 'events', 'faults', 'gateway', 'metrics', 'rate-limits'], types: ['http'] },
  // The server is built with the parts the wiring made (their type only: the wiring builds them).
  http: {
    values: [...PURE, ...STORES, ...SERVED, 'faults', 'http', 'metrics', 'rate-limits'],
    types: ['src/app/services.ts'],
  },
  cli: { values: ['src/app.ts', 'cli', ...PURE, ...STORES, 'service', 'events', 'http', 'testing', 'world'] },
  // The kit shares the CLI's client half (its HTTP client, `invoke` name resolution), never `serve`.
  testing: {
    values: ['src/app.ts', 'src/cli/client.ts', 'src/cli/invoke/', ...PURE, 'rate-limits', 'testing', 'world'],
  },
  // The client library runs in browsers: no Node module but in `slashd/sdk/node`.
  sdk: { values: ['sdk'], packages: [] },
  'sdk-node': { values: ['sdk', 'sdk-node'], packages: ['node:'] },
};

/** A path of the repository, with forward slashes; null outside it. */
function repoPathOf(filename) {
  const path = relative(ROOT, filename).split(sep).join('/');
  return path.startsWith('../') ? null : path;
}

/** What a relative import names: its path below src (`.js` read as the `.ts` it compiles from) and role. */
function importedFile(importer, specifier) {
  const path = posix.normalize(posix.join(posix.dirname(importer), specifier));
  if (!path.startsWith('src/')) return { path, role: null };
  const below = path.slice('src/'.length).replace(/\.js$/, '.ts');
  return { path: `src/${below}`, role: roleOf(below) };
}

/** Whether an entry of a table (a role, or a file or folder of src) covers an imported file. */
function covers(entry, { path, role }) {
  if (!entry.startsWith('src/')) return entry === role;
  return entry.endsWith('/') ? path.startsWith(entry) : path === entry;
}

/** Whether a package entry (`name`, or a prefix ending in `/` or `:`) covers a package import. */
function coversPackage(entry, specifier) {
  return entry.endsWith('/') || entry.endsWith(':') ? specifier.startsWith(entry) : specifier === entry;
}

/** Where a file stands, as the messages say it: "in layer routes (a resource's routes.ts, ...)". */
function roleText(role) {
  return role === null ? 'in no layer' : `in layer ${role} (${ROLE_PLACES[role] ?? `src/${role}/`})`;
}

const LAYERS_DOC = '(docs/architecture.md, "The layers")';

/** What a layer may import, for its messages. */
function allowedText({ values, types = [] }) {
  return `${values.join(', ')}${types.length > 0 ? `, and types of ${types.join(', ')}` : ''}`;
}

/** The refusal of one import of a file of src (null: it is allowed). */
function refusalOf(importer, role, { specifier, typeOnly, names }) {
  const layer = LAYERS[role];
  const who = `${importer} is ${roleText(role)}:`;
  if (!specifier.startsWith('.')) return packageRefusal(who, layer, specifier, names);
  const target = importedFile(importer, specifier);
  const allows = (entries) => entries.some((entry) => covers(entry, target));
  if (allows(layer.values) || (typeOnly && allows(layer.types ?? []))) return null;
  const only = allows(layer.types ?? []) ? ', of which it takes types only' : '';
  return `${who} it imports only from ${allowedText(layer)}; ${specifier} is ${roleText(target.role)}${only} ${LAYERS_DOC}.`;
}

function packageRefusal(who, { packages, pureParts = {}, refusedPackages = [] }, specifier, names) {
  const refused = refusedPackages.find((entry) => coversPackage(entry, specifier));
  if (refused) return `${who} it imports none of ${refusedPackages.join(', ')}, so not ${specifier} ${LAYERS_DOC}.`;
  if (!packages || packages.some((entry) => coversPackage(entry, specifier))) return null;
  const parts = pureParts[specifier];
  if (parts) {
    const pure = names !== null && names.length > 0 && names.every((name) => parts.includes(name));
    return pure ? null : `${who} it takes only ${parts.join(', ')} from ${specifier} ${LAYERS_DOC}.`;
  }
  const allowed = [...packages, ...Object.keys(pureParts)];
  const but = allowed.length > 0 ? ` but ${allowed.join(', ')}` : '';
  return `${who} it imports no package${but}, so not ${specifier} ${LAYERS_DOC}.`;
}

/** The names an import or re-export takes, null when it takes a whole module (default, namespace, `*`). */
function namesOf(specifiers) {
  const named = specifiers.every(
    (specifier) => specifier.type === 'ImportSpecifier' || specifier.type === 'ExportSpecifier',
  );
  return named
    ? specifiers
        .map((specifier) => (specifier.type === 'ImportSpecifier' ? specifier.imported : specifier.local))
        .map((name) => name.name ?? name.value)
    : null;
}

/** Whether an import or re-export takes types only (`import type`, or every name marked `type`). */
function typeOnly(node, kind) {
  return (
    node[kind] === 'type' ||
    (node.specifiers.length > 0 && node.specifiers.every((specifier) => specifier[kind] === 'type'))
  );
}

/** The string a dynamic import or `import('...')` type names, null when it is computed. */
function literalOf(node) {
  if (node?.type === 'TSLiteralType') return literalOf(node.literal);
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return null;
}

/**
 * `slashd/layers`: each import, re-export, dynamic import, `import('...')` type and `require` of a
 * file of src is resolved to the file it names, and refused unless the importer's role may import
 * that file's role (LAYERS). A dynamic import of a computed name is refused outright: no layer can
 * be read from it. Files of the free roles (the wiring, the tests) and of no role are not checked.
 */
const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: `Each file of src imports only what its role may ${LAYERS_DOC}.` },
    schema: [],
  },
  create(context) {
    const importer = repoPathOf(context.filename);
    const role = importer?.startsWith('src/') ? roleOf(importer.slice('src/'.length)) : null;
    if (!LAYERS[role]) return {};
    const check = (node, specifier, typeOnlyImport, names) => {
      const message =
        specifier === null
          ? `${importer} is ${roleText(role)}: it imports only modules it names outright ${LAYERS_DOC}.`
          : refusalOf(importer, role, { specifier, typeOnly: typeOnlyImport, names });
      if (message) context.report({ node, message });
    };
    const checkExport = (node) => {
      if (node.source) check(node, node.source.value, typeOnly(node, 'exportKind'), namesOf(node.specifiers));
    };
    return {
      ImportDeclaration: (node) =>
        check(node, node.source.value, typeOnly(node, 'importKind'), namesOf(node.specifiers)),
      ExportNamedDeclaration: checkExport,
      ExportAllDeclaration: (node) => check(node, node.source.value, node.exportKind === 'type', null),
      ImportExpression: (node) => check(node, literalOf(node.source), false, null),
      TSImportType: (node) => check(node, literalOf(node.argument), true, null),
      TSExternalModuleReference: (node) =>
        check(node, literalOf(node.expression), node.parent.importKind === 'type', null),
    };
  },
};

/** The layers, checked on every file of src but the tests (which are free). */
function layerRules() {
  return [
    {
      files: ['src/**/*.ts'],
      ignores: ['src/**/*.test.ts'],
      plugins: { slashd: { rules: { layers: layersRule } } },
      rules: { 'slashd/layers': 'error' },
    },
  ];
}

/** A regular expression for an import path (relative to src/core) naming one of `targets`. */
function anyOf(targets) {
  const escaped = targets.map((target) => {
    const text = target.replaceAll('.', '\\.');
    return target.endsWith('.js') ? `${text}$` : target.endsWith('/') ? text : `${text}/`;
  });
  return `(?:${escaped.join('|')})`;
}

/**
 * What `slashd/validation` (package.json `exports`) reaches: it is imported alone, by bot authors
 * offline and by `slashd lint`, so each module it reaches imports only modules of this set, and no
 * package at all. Relative to src/core.
 */
const VALIDATION_ALONE = anyOf([
  'validation/',
  'snowflake.js',
  'locales.js',
  'records.js',
  'commands/model.js',
]).replace('(?:', '(?:io/(?!json-text\\.js$)|');

function validationStandsAlone() {
  const message =
    'slashd/validation is imported alone: it reaches only core/validation, core/io (not json-text.ts), snowflake.ts, locales.ts, records.ts and commands/model.ts, and no package.';
  const noPackage = { regex: '^(?!\\.)', message };
  const block = (files, patterns) => ({
    files,
    rules: {
      'no-restricted-imports': ['error', { patterns: [noPackage, ...patterns.map((regex) => ({ regex, message }))] }],
    },
  });
  return [
    block(
      ['src/core/validation/*.ts', 'src/core/io/*.ts'],
      [`^\\.\\./(?!${VALIDATION_ALONE})`, '^\\./json-text\\.js$'],
    ),
    block(['src/core/commands/model.ts'], [`^\\.\\./(?!${VALIDATION_ALONE})`, '^\\./']),
    block(
      ['src/core/snowflake.ts', 'src/core/locales.ts', 'src/core/records.ts'],
      ['^\\.\\./', `^\\./(?!${VALIDATION_ALONE})`],
    ),
  ].map((config) =>
    config.files.includes('src/core/io/*.ts') ? { ...config, ignores: ['src/core/io/json-text.ts'] } : config,
  );
}

/** The issue codes: spelled as strings in src/core/io/codes.ts, and named by constant everywhere else. */
const ISSUE_CODES = [
  ...readFileSync(new URL('./src/core/io/codes.ts', import.meta.url), 'utf8').matchAll(
    /^export const \w+ = '(\w+)';$/gm,
  ),
].map((match) => match[1]);

/**
 * One way to do each thing (docs/architecture.md): each entry is a construct that only the
 * modules in `only` may write. The `only` lists do not overlap: a file gets every other entry.
 */
const ONE_WAY = [
  {
    only: ['src/core/io/errors.ts'],
    restrict: [
      {
        selector: "NewExpression[callee.name='ApiError']",
        message: 'Only src/core/io/errors.ts builds an ApiError: throw apiError(name) with an entry of its registry.',
      },
    ],
  },
  {
    only: ['src/core/io/codes.ts'],
    restrict: [
      {
        selector: `Literal[value=/^(?:${ISSUE_CODES.join('|')})$/]`,
        message: 'An issue code is named by its constant from src/core/io/codes.ts, never spelled as a string.',
      },
    ],
  },
  {
    only: ['src/http/authentication.ts'],
    restrict: [
      {
        selector: "ImportSpecifier[imported.name='authenticate'], CallExpression[callee.name='authenticate']",
        message:
          'Only the authentication hook (src/http/authentication.ts) looks a token up; read request.principal through the guards.',
      },
    ],
  },
  {
    // The client library runs apart from the server: its failures are the spec's ClientResult.
    only: ['src/core/io/result.ts', 'src/sdk/**/*.ts'],
    restrict: [
      {
        selector:
          "Property[key.name='ok'][value.raw=/^(?:true|false)$/], TSPropertySignature[key.name='ok'] > TSTypeAnnotation > TSLiteralType",
        message:
          'One Result (src/core/io/result.ts): build it with ok() and fail(), never an ok/ok:false shape of your own.',
      },
    ],
  },
];

function oneWayRules() {
  const restrictions = (entries) => ['error', ...entries.flatMap((entry) => entry.restrict)];
  return [
    // The tests beside their resource spell codes and shapes on purpose: what the wire must carry.
    { files: ['src/**/*.ts'], ignores: ['src/**/*.test.ts'], rules: { 'no-restricted-syntax': restrictions(ONE_WAY) } },
    ...ONE_WAY.map((entry) => ({
      files: entry.only,
      rules: { 'no-restricted-syntax': restrictions(ONE_WAY.filter((other) => other !== entry)) },
    })),
  ];
}

/** Untyped JSON read back from slashd on purpose: the tests and the CLI check it by value, not by type. */
const readsWireJson = [
  'test/**/*.ts',
  'src/**/*.test.ts',
  'src/cli/**/*.ts',
  'src/testing/**/*.ts',
  'console/src/**/*.{ts,tsx}',
];

export default defineConfig(
  // The console's Vite config runs in node outside both tsconfigs (it is plain configuration).
  { ignores: ['dist/', 'node_modules/', 'data/', 'test/fixtures/', 'console/vite.config.ts'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: fileURLToPath(new URL('.', import.meta.url)) },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      eqeqeq: 'error',
      // A `let` that a callback reads before its one assignment (a timer it clears) stays a `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      'array-callback-return': 'error',
      'no-self-compare': 'error',
      'no-template-curly-in-string': 'error',
      'no-unmodified-loop-condition': 'error',
      'no-unreachable-loop': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-import-type-side-effects': 'error',
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // `_name` marks a parameter a signature needs, or a field taken out of an object by destructuring.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          // A FastifyReply is thenable, but a sent reply needs no awaiting.
          allowForKnownSafePromises: [{ from: 'package', package: 'fastify', name: 'FastifyReply' }],
          // node:test's describe/it return promises the runner itself awaits.
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] },
          ],
        },
      ],
      // Off: the SQLite tables implement the async Store interface synchronously, and Fastify plugins
      // are async by contract; an `async` without `await` is the design there, not a slip.
      '@typescript-eslint/require-await': 'off',
      // Off: a wire number (a stored `type`, a received `flags`) is compared with discord-api-types'
      // enums (ChannelType, InteractionResponseType...) throughout; the compiler already refuses a
      // comparison of two different enums.
      '@typescript-eslint/no-unsafe-enum-comparison': 'off',
      // Off: the input readers quote any rejected value with String(value), as v10's messages do;
      // template literals are still checked by restrict-template-expressions.
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    files: readsWireJson,
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Plain JavaScript (bin, scripts, examples, this file) is outside tsconfig: no type information.
    files: ['**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', fetch: 'readonly' },
    },
  },
  {
    // The SDK's sample web app: a browser page and the small Node server that serves it.
    files: ['examples/sdk-web/**/*.js'],
    languageOptions: {
      globals: { document: 'readonly', location: 'readonly', sessionStorage: 'readonly', AbortSignal: 'readonly' },
    },
  },
  ...layerRules(),
  ...validationStandsAlone(),
  ...oneWayRules(),
  prettier,
);
