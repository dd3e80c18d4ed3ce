/** The 8000-character budget of a CHAT_INPUT command, counted over the longest variant of each field. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  commandSize,
  validateBulkOverwrite,
  validateCreateCommand,
  type ValidationContext,
} from '../src/core/validation/index.js';
import { APPLICATION_COMMAND_TOO_LARGE } from '../src/core/io/codes.js';
import { formErrorTree } from '../src/core/io/issue.js';

const GLOBAL: ValidationContext = {
  scope: 'global',
  app: { flags: 0, integration_types: [0, 1], discoverable: false },
};

interface Choice {
  name: string;
  value: string;
}

/**
 * A valid command of exactly `size` characters: name "c" and description "d" (2), then options
 * named oNN with description "d" (4 each) holding string choices of up to 100 + 100 characters.
 */
function commandOfSize(size: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  let remaining = size - 2;
  const options: Record<string, unknown>[] = [];
  while (remaining > 0) {
    const name = `o${String(options.length).padStart(2, '0')}`;
    remaining -= name.length + 1;
    const choices: Choice[] = [];
    while (remaining > 0 && choices.length < 25) {
      const chunk = Math.min(200, remaining);
      const nameLength = Math.min(100, chunk);
      choices.push({ name: `${choices.length}`.padEnd(nameLength, 'n'), value: 'v'.repeat(chunk - nameLength) });
      remaining -= chunk;
    }
    options.push({ type: 3, name, description: 'd', choices });
  }
  if (remaining !== 0) throw new Error(`cannot build a command of ${size} characters`);
  return { name: 'c', description: 'd', options, ...extra };
}

function issuesOf(body: unknown): [string, string][] {
  const result = validateCreateCommand(body, GLOBAL);
  return result.ok ? [] : result.issues.map((i) => [i.path.join('.'), i.code]);
}

describe('8000 characters per CHAT_INPUT command', () => {
  test('8000 characters are accepted', () => {
    const result = validateCreateCommand(commandOfSize(8000), GLOBAL);
    assert.ok(result.ok);
    assert.equal(commandSize(result.value), 8000);
  });

  test('8001 characters are refused at the root with the documented message', () => {
    const result = validateCreateCommand(commandOfSize(8001), GLOBAL);
    assert.equal(result.ok, false);
    assert.ok(!result.ok);
    assert.deepEqual(result.issues, [
      { path: [], code: APPLICATION_COMMAND_TOO_LARGE, message: 'Command exceeds maximum size (8000)' },
    ]);
    assert.deepEqual(JSON.parse(JSON.stringify(formErrorTree(result.issues))), {
      _errors: [{ code: 'APPLICATION_COMMAND_TOO_LARGE', message: 'Command exceeds maximum size (8000)' }],
    });
  });

  test('only the longest variant of a field counts', () => {
    // The description "d" localized to 2 characters adds 1; a 1-character localization adds nothing.
    assert.deepEqual(issuesOf(commandOfSize(7999, { description_localizations: { fr: 'dd' } })), []);
    assert.deepEqual(issuesOf(commandOfSize(8000, { description_localizations: { fr: 'e', de: 'f' } })), []);
    assert.deepEqual(issuesOf(commandOfSize(8000, { description_localizations: { fr: 'dd' } })), [
      ['', APPLICATION_COMMAND_TOO_LARGE],
    ]);
    assert.deepEqual(issuesOf(commandOfSize(7998, { name_localizations: { fr: 'ccc', de: 'cc' } })), []);
    assert.deepEqual(issuesOf(commandOfSize(7999, { name_localizations: { fr: 'ccc', de: 'cc' } })), [
      ['', APPLICATION_COMMAND_TOO_LARGE],
    ]);
  });

  test('characters are code points', () => {
    const astral = '\u{20000}';
    const withAstralOption = (count: number) => {
      const base = commandOfSize(7900);
      // 6 + count more characters, although the description is 2 × count UTF-16 units.
      const filler = { type: 3, name: 'astral', description: astral.repeat(count) };
      return { ...base, options: [...(base.options as unknown[]), filler] };
    };
    const exact = validateCreateCommand(withAstralOption(94), GLOBAL);
    assert.ok(exact.ok);
    assert.equal(commandSize(exact.value), 8000);
    assert.deepEqual(issuesOf(withAstralOption(95)), [['', APPLICATION_COMMAND_TOO_LARGE]]);
  });

  test('options at every depth and their choices count; numeric values count their digits', () => {
    const sub = (name: string, choiceName: string, value: number) => ({
      type: 1,
      name,
      description: 'd'.repeat(100),
      options: [{ type: 4, name: 'n', description: 'd'.repeat(100), choices: [{ name: choiceName, value }] }],
    });
    const group = (name: string, ...subs: unknown[]) => ({
      type: 2,
      name,
      description: 'd'.repeat(100),
      options: subs,
    });
    const subs = Array.from({ length: 25 }, (_, i) => sub(`s${String(i).padStart(2, '0')}`, 'c'.repeat(100), 12345));
    // One group: 1 + 100, 25 subcommands of (3 + 100) + (1 + 100) + (100 + 5) = 309 → 101 + 7725 = 7826.
    const body = { name: 'c', description: 'd', options: [group('g', ...subs)] };
    const result = validateCreateCommand(body, GLOBAL);
    assert.ok(result.ok);
    assert.equal(commandSize(result.value), 2 + 7826);
    const bigger = {
      name: 'c',
      description: 'd',
      options: [group('g', ...subs), group('h', sub('s', 'c'.repeat(70), 1))],
    };
    assert.deepEqual(issuesOf(bigger), [['', APPLICATION_COMMAND_TOO_LARGE]]);
  });

  test('in a bulk body the error is at the item', () => {
    const result = validateBulkOverwrite([{ name: 'ok', description: 'd' }, commandOfSize(8001)], GLOBAL);
    assert.ok(!result.ok);
    assert.deepEqual(
      result.issues.map((i) => [i.path, i.code]),
      [[[1], APPLICATION_COMMAND_TOO_LARGE]],
    );
    assert.deepEqual(JSON.parse(JSON.stringify(formErrorTree(result.issues))), {
      1: { _errors: [{ code: 'APPLICATION_COMMAND_TOO_LARGE', message: 'Command exceeds maximum size (8000)' }] },
    });
  });
});
