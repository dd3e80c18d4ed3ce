/** Table-driven validation cases: a body, and the exact issues (path and code) it must produce. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { APPLICATION_FLAG_EMBEDDED } from '../../src/core/commands/model.js';
import { validateCreateCommand, type AppTraits, type ValidationContext } from '../../src/core/validation/index.js';

export type Path = readonly (string | number)[];

export interface Case {
  name: string;
  body: unknown;
  /** The issues, in order, as [path, code]; empty when the body is valid. */
  expect: readonly (readonly [Path, string])[];
  ctx?: ValidationContext;
}

/** An app with no flags, both installation contexts, not discoverable. */
export const PLAIN_APP: AppTraits = { flags: 0, integration_types: [0, 1], discoverable: false };
export const GLOBAL: ValidationContext = { scope: 'global', app: PLAIN_APP };
export const GUILD: ValidationContext = { scope: 'guild', app: PLAIN_APP };
/** The same app with Activities (the EMBEDDED flag): it may have an Entry Point command. */
export const EMBEDDED_APP: AppTraits = { ...PLAIN_APP, flags: APPLICATION_FLAG_EMBEDDED };
export const EMBEDDED: ValidationContext = { scope: 'global', app: EMBEDDED_APP };
export const EMBEDDED_GUILD: ValidationContext = { scope: 'guild', app: EMBEDDED_APP };

/** Validates a create body and compares its issues with the case's, exactly. */
export function check({ body, expect, ctx = GLOBAL }: Case): void {
  const result = validateCreateCommand(body, ctx);
  if (expect.length === 0) assert.ok(result.ok, JSON.stringify(!result.ok && result.issues));
  else assert.deepEqual(result.ok ? [] : result.issues.map((i) => [i.path, i.code]), expect);
}

export function runCases(cases: readonly Case[]): void {
  for (const c of cases) test(c.name, () => check(c));
}
