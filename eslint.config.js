// ESLint: the rules that catch bugs the compiler does not (a promise nobody awaits, `any` leaking
// into typed code, loose equality, a switch that forgets a case). Layout is Prettier's job:
// eslint-config-prettier comes last and turns off every rule that would disagree with it.
// Why this set and not another: docs/decisions.md, "Tooling".
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

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
  prettier,
);
