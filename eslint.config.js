// ESLint: the rules that catch bugs the compiler does not (a promise nobody awaits, `any` leaking
// into typed code, loose equality, a switch that forgets a case). Layout is Prettier's job:
// eslint-config-prettier comes last and turns off every rule that would disagree with it.
// Why this set and not another: docs/decisions.md, "Tooling". The house rules about structure
// (which layer imports which, the one way to build an error) are lint rules too, at the end, so
// the editor shows them where they are broken (docs/architecture.md).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/**
 * The layers of src and what each imports (docs/architecture.md, "The layers"): `values` are the
 * folders of src (or single modules, `app.js`) a module of the layer may import anything from,
 * `types` those it may take types from only. A layer is a folder of src or a folder inside one
 * (`http/routes`); a later entry replaces an earlier one for its files. `app.ts` (its parts in
 * `app/`) and `index.ts` wire every layer together and are free; the CLI and the testing kit reach
 * the wiring only through `app.js`. `packages`: the only non-relative imports the layer may make
 * (when given).
 */
const LAYERS = [
  {
    layer: 'core',
    values: ['core'],
    packages: ['node:crypto', 'secure-json-parse', 'discord-api-types/'],
    // Pure functions of an I/O module: what an address is, without opening anything.
    pureParts: { 'node:net': ['isIP', 'isIPv4', 'isIPv6'] },
  },
  { layer: 'store', values: ['core', 'store'] },
  { layer: 'events', values: ['core', 'events'] },
  { layer: 'metrics', values: ['core', 'metrics'] },
  { layer: 'faults', values: ['core', 'faults'] },
  { layer: 'rate-limits', values: ['core', 'rate-limits'] },
  { layer: 'world', values: ['core', 'world'] },
  { layer: 'delivery', values: ['core', 'delivery', 'metrics'], types: ['store'] },
  {
    layer: 'gateway',
    values: ['core', 'events', 'faults', 'gateway', 'metrics', 'rate-limits', 'store'],
    types: ['http'],
  },
  { layer: 'services', values: ['core', 'delivery', 'events', 'faults', 'metrics', 'services', 'store'] },
  { layer: 'http', values: ['core', 'faults', 'http', 'metrics', 'rate-limits', 'services', 'store'] },
  // Routes reach stored data through a service; the constant-time comparison is the one exception.
  { layer: 'http/routes', values: ['core', 'http', 'services', 'store/tokens.js'], types: ['store', 'gateway'] },
  { layer: 'cli', values: ['app.js', 'cli', 'core', 'events', 'http', 'services', 'store', 'testing', 'world'] },
  // The kit shares the CLI's client half (its HTTP client, `invoke` name resolution), never `serve`.
  { layer: 'testing', values: ['app.js', 'cli/client.js', 'cli/invoke/', 'core', 'rate-limits', 'testing', 'world'] },
  // The client library runs in browsers: no Node module but in `slashd/sdk/node`.
  { layer: 'sdk', values: ['sdk'], packages: [] },
  { layer: 'sdk', files: ['src/sdk/node.ts'], values: ['sdk'], packages: ['node:'] },
];

/** A regular expression for an import path (relative to src) naming one of `targets`. */
function anyOf(targets) {
  const escaped = targets.map((target) => {
    const text = target.replaceAll('.', '\\.');
    return target.endsWith('.js') ? `${text}$` : target.endsWith('/') ? text : `${text}/`;
  });
  return `(?:${escaped.join('|')})`;
}

/**
 * `no-restricted-imports` for each layer. The rule sees import paths as written, so each depth of
 * folder gets its own patterns: from `src/<layer>/` + k folders, `../` repeated (segments of the
 * layer + k) times leads to src itself, and what follows names the layer imported.
 */
function layerRules() {
  return LAYERS.flatMap(({ layer, files, values, types = [], packages, pureParts = {} }) => {
    const segments = layer.split('/').length;
    const depths = files ? [0] : [0, 1, 2].filter((k) => segments + k <= 3);
    return depths.map((k) => {
      const up = `^(?:\\.\\./){${segments + k}}`;
      const message = `src/${layer} imports from ${values.join(', ')}${
        types.length > 0 ? `, and types from ${types.join(', ')}` : ''
      } (docs/architecture.md, "The layers").`;
      const patterns = [{ regex: `${up}(?!${anyOf([...values, ...types])})`, message }];
      if (types.length > 0)
        patterns.push({ regex: `${up}(?!${anyOf(values)})${anyOf(types)}`, allowTypeImports: true, message });
      if (packages) {
        const names = [...packages, ...Object.keys(pureParts)];
        const allowed = names.map((name) => (name.endsWith('/') || name.endsWith(':') ? name : `${name}$`));
        const message = `src/${layer} imports no package but ${names.join(', ') || 'none'} (docs/architecture.md, "The layers").`;
        patterns.push({ regex: `^(?!\\.${allowed.map((name) => `|${name}`).join('')})`, message });
        for (const [name, parts] of Object.entries(pureParts)) {
          patterns.push({
            regex: `^${name}$`,
            allowImportNames: parts,
            message: `src/${layer} takes only ${parts.join(', ')} from ${name}.`,
          });
        }
      }
      return {
        files: files ?? [`src/${layer}/${'*/'.repeat(k)}*.ts`],
        rules: { 'no-restricted-imports': ['error', { patterns }] },
      };
    });
  });
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
    { files: ['src/**/*.ts'], rules: { 'no-restricted-syntax': restrictions(ONE_WAY) } },
    ...ONE_WAY.map((entry) => ({
      files: entry.only,
      rules: { 'no-restricted-syntax': restrictions(ONE_WAY.filter((other) => other !== entry)) },
    })),
  ];
}

/** Untyped JSON read back from slashd on purpose: the tests and the CLI check it by value, not by type. */
const readsWireJson = ['test/**/*.ts', 'src/cli/**/*.ts', 'src/testing/**/*.ts', 'console/src/**/*.{ts,tsx}'];

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
