/**
 * The one error table (src/core/io/errors.ts) and docs/errors.md say the same: the doc's table is
 * the registry rendered, and every entry is a v10 body. That nothing else in src builds an ApiError
 * is a lint rule (eslint.config.js, test/lint-layers.test.ts).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ERRORS_TABLE_BEGIN, ERRORS_TABLE_END, renderErrorsTable } from '../src/core/io/errors-table.js';
import { apiError, ERRORS, statusError, type ErrorName } from '../src/core/io/errors.js';

function repoRoot(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(directory, 'package.json'))) directory = dirname(directory);
  return directory;
}

const ROOT = repoRoot();
const DOC = readFileSync(join(ROOT, 'docs/errors.md'), 'utf8');
const NAMES = Object.keys(ERRORS) as ErrorName[];

describe('the error registry', () => {
  it('is the table in docs/errors.md, entry for entry', () => {
    const begin = DOC.indexOf(ERRORS_TABLE_BEGIN);
    const end = DOC.indexOf(ERRORS_TABLE_END);
    assert.ok(begin >= 0 && end > begin, 'docs/errors.md has the generated table markers');
    const documented = DOC.slice(begin, end + ERRORS_TABLE_END.length);
    assert.equal(documented, renderErrorsTable(), 'docs/errors.md is out of date; paste the expected table above');
  });

  it('documents no numeric code the registry does not have', () => {
    const codes = new Set<number>(NAMES.map((name) => ERRORS[name].code));
    const table = DOC.slice(DOC.indexOf(ERRORS_TABLE_BEGIN), DOC.indexOf(ERRORS_TABLE_END));
    for (const match of table.matchAll(/^\| `\w+` \| \d+ \| (\d+) \|/gm)) assert.ok(codes.has(Number(match[1])));
  });

  it('gives every entry a client or server status and a v10 body', () => {
    for (const name of NAMES) {
      const error = apiError(name);
      assert.ok(error.status >= 400 && error.status < 600, name);
      assert.deepEqual(Object.keys(error.toBody()), ['message', 'code'], name);
      assert.equal(error.kind, name);
    }
  });

  it('fills placeholders and keeps extra fields', () => {
    const error = apiError('MaxDailyApplicationCommandCreates', {
      params: { limit: 200, application: '1324165260902400001' },
      extra: { retry_after: 5 },
    });
    assert.deepEqual(error.toBody(), {
      message:
        'Max number of daily application command creates has been reached (200)' +
        ' (slashd: `slashd serve --daily-command-creates N` or `off` lifts it; DELETE /admin/applications/1324165260902400001/command-creates resets it)',
      code: 30034,
      retry_after: 5,
    });
    assert.equal(error.status, 429);
  });

  it('names general HTTP errors by status, with the reason phrase for the rest', () => {
    assert.deepEqual(statusError(431, 'Request Header Fields Too Large').toBody(), {
      message: '431: Request Header Fields Too Large',
      code: 0,
    });
    const teapot = statusError(418, "I'm a Teapot");
    assert.equal(teapot.status, 418);
    assert.equal(teapot.message, "418: I'm a Teapot");
    assert.equal(statusError(503, 'Service Unavailable').message, '503: Service Unavailable');
    assert.equal(statusError(502, 'Bad Gateway').message, '500: Internal Server Error');
  });
});
