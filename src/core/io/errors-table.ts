/** docs/errors.md's table of error bodies, rendered from the registry (test/error-registry.test.ts keeps them equal). */
import { ERRORS, type ErrorName } from './errors.js';

export const ERRORS_TABLE_BEGIN = '<!-- errors table: generated from src/core/io/errors.ts -->';
export const ERRORS_TABLE_END = '<!-- end of errors table -->';

export function renderErrorsTable(): string {
  const rows = (Object.keys(ERRORS) as ErrorName[]).map((name) => {
    const { status, code, message } = ERRORS[name];
    return `| \`${name}\` | ${status} | ${code} | ${message} |`;
  });
  return [
    ERRORS_TABLE_BEGIN,
    '| name | status | code | message |',
    '|---|---|---|---|',
    ...rows,
    ERRORS_TABLE_END,
  ].join('\n');
}
