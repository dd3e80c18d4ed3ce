/**
 * Validation speed: validateCreateCommand on a maximal valid command (near 8000 characters, 25
 * options, 25 choices, localized) against an Ajv-compiled structural check of the same payload
 * with the OpenAPI `ApplicationCommandCreateRequest` schema. Goal: the ratio validate/ajv ≤ 2
 * (slashd checks far more than structure, but should cost about as much).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
// The named export: under NodeNext the CommonJS default import is not constructable.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { SUPPORTED_LOCALES } from '../src/core/locales.js';
import { commandSize, validateCreateCommand, type ValidationContext } from '../src/core/validation/index.js';

/** Target ratio of slashd's validation time to Ajv's. */
const RATIO_GOAL = 2;
/** Calls of each before timing, so both run optimized code. */
const WARMUP_CALLS = 2_000;
/** Calls per timed round. */
const CALLS_PER_ROUND = 1_000;
/** Timed rounds of each; the median counts. */
const ROUNDS = 9;

const CONTEXT: ValidationContext = {
  scope: 'global',
  app: { flags: 0, integration_types: [0, 1], discoverable: false },
};

/** Locales whose lowercase form is itself a valid slash-command name fragment. */
const LOCALIZED = SUPPORTED_LOCALES.slice(0, 8);

function text(prefix: string, length: number): string {
  return (prefix + 'x'.repeat(length)).slice(0, length);
}

function localized(make: (locale: string, index: number) => string): Record<string, string> {
  return Object.fromEntries(LOCALIZED.map((locale, index) => [locale, make(locale, index)]));
}

function nameFragment(locale: string): string {
  return locale.toLowerCase().replace(/[^a-z]/g, '');
}

const PLAIN_OPTION_TYPES = [4, 10, 5, 6, 7, 8, 9, 11, 3] as const;

function plainOption(index: number): Record<string, unknown> {
  const type = PLAIN_OPTION_TYPES[index % PLAIN_OPTION_TYPES.length] ?? 3;
  const option: Record<string, unknown> = {
    type,
    name: text(`option-${index}-`, 32),
    name_localizations: localized((locale) => text(`o${index}-${nameFragment(locale)}-`, 32)),
    description: text(`Option ${index}: `, 100),
    description_localizations: localized((locale) => text(`Option ${index} (${locale}) `, 100)),
    required: index < 10,
  };
  if (type === 4) Object.assign(option, { min_value: -1000, max_value: 1000 });
  if (type === 10) Object.assign(option, { min_value: -0.5, max_value: 99.5 });
  if (type === 7) option.channel_types = [0, 2, 5, 13, 15];
  if (type === 3) Object.assign(option, { min_length: 1, max_length: 200, autocomplete: true });
  return option;
}

function choiceOption(): Record<string, unknown> {
  return {
    type: 3,
    name: text('choice-option-', 32),
    name_localizations: localized((locale) => text(`c-${nameFragment(locale)}-`, 32)),
    description: text('Pick one: ', 100),
    description_localizations: localized((locale) => text(`Pick one (${locale}) `, 100)),
    required: true,
    choices: Array.from({ length: 25 }, (_, index) => ({
      name: text(`Choice ${index} `, 91),
      name_localizations: localized((locale) => text(`Choice ${index} (${locale}) `, 91)),
      value: text(`value-${index}-`, 91),
    })),
  };
}

/** 25 options (one with 25 choices), every name and description localized, just under 8000 characters. */
export function maximalCommand(): Record<string, unknown> {
  return {
    type: 1,
    name: text('maximal-command-', 32),
    name_localizations: localized((locale) => text(`m-${nameFragment(locale)}-`, 32)),
    description: text('A command as large as v10 allows. ', 100),
    description_localizations: localized((locale) => text(`A large command (${locale}) `, 100)),
    options: [choiceOption(), ...Array.from({ length: 24 }, (_, index) => plainOption(index + 1))],
    default_member_permissions: 8,
    dm_permission: false,
    integration_types: [0, 1],
    contexts: [0, 1, 2],
    nsfw: false,
  };
}

function findRepoRoot(start: string): string {
  let directory = start;
  while (!existsSync(join(directory, 'package.json'))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error('package.json not found above the bench file');
    directory = parent;
  }
  return directory;
}

function loadOpenApi(): { components: unknown } {
  const root = findRepoRoot(dirname(fileURLToPath(import.meta.url)));
  return JSON.parse(readFileSync(resolve(root, 'test/fixtures/openapi/openapi.json'), 'utf8')) as {
    components: unknown;
  };
}

const OPENAPI_ID = 'https://slashd.invalid/openapi.json';

function compileAjvCheck(): (payload: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false, logger: false });
  ajv.addSchema({ $id: OPENAPI_ID, components: loadOpenApi().components });
  const check = ajv.compile({ $ref: `${OPENAPI_ID}#/components/schemas/ApplicationCommandCreateRequest` });
  return (payload) => check(payload) === true;
}

function microsecondsPerCall(call: () => unknown): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < CALLS_PER_ROUND; i++) call();
  return Number(process.hrtime.bigint() - start) / 1000 / CALLS_PER_ROUND;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * Microseconds per call of each, the median over rounds after a warm-up. The two alternate round
 * by round, so a change in machine load weighs on both alike; the ratio is the median of the
 * per-round ratios.
 */
function compare(first: () => unknown, second: () => unknown): { first: number; second: number; ratio: number } {
  for (let i = 0; i < WARMUP_CALLS; i++) {
    first();
    second();
  }
  const firsts: number[] = [];
  const seconds: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const a = microsecondsPerCall(first);
    const b = microsecondsPerCall(second);
    firsts.push(a);
    seconds.push(b);
    ratios.push(a / b);
  }
  return { first: median(firsts), second: median(seconds), ratio: median(ratios) };
}

export async function runValidationBench(): Promise<{ lines: string[] }> {
  const payload = maximalCommand();
  const result = validateCreateCommand(payload, CONTEXT);
  if (!result.ok) throw new Error(`bench payload is invalid: ${JSON.stringify(result.issues)}`);
  const ajvCheck = compileAjvCheck();
  if (!ajvCheck(payload)) throw new Error('bench payload does not pass the OpenAPI schema');

  const {
    first: validateMicros,
    second: ajvMicros,
    ratio,
  } = compare(
    () => validateCreateCommand(payload, CONTEXT),
    () => ajvCheck(payload),
  );
  const size = commandSize(result.value);
  return {
    lines: [
      `validation: maximal command, ${size} characters, 25 options, 25 choices, ${LOCALIZED.length} locales per field`,
      `validation: validateCreateCommand ${validateMicros.toFixed(1)} µs/call`,
      `validation: ajv OpenAPI ApplicationCommandCreateRequest ${ajvMicros.toFixed(1)} µs/call`,
      `validation: ratio validate/ajv ${ratio.toFixed(2)} (goal ≤ ${RATIO_GOAL}) ${ratio <= RATIO_GOAL ? 'ok' : 'OVER GOAL'}`,
    ],
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { lines } = await runValidationBench();
  for (const line of lines) console.log(line);
}
