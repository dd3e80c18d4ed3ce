import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateBulkOverwrite, validateCreateCommand, type ValidationContext } from '../src/core/validation/index.js';

const global: ValidationContext = {
  scope: 'global',
  app: { flags: 0, integration_types: [0, 1], discoverable: false },
};

describe('dm_permission and defaulted contexts', () => {
  it('dm_permission false keeps BOT_DM out of the bulk default contexts', () => {
    const result = validateBulkOverwrite([{ name: 'quiet', description: 'No DMs', dm_permission: false }], global);
    assert.ok(result.ok);
    assert.deepEqual(result.value[0]!.definition.contexts, [0, 2]);
    assert.equal(result.value[0]!.definition.dm_permission, false);
  });

  it('contexts the client sends win over dm_permission', () => {
    const result = validateBulkOverwrite(
      [{ name: 'quiet', description: 'Explicit', dm_permission: false, contexts: [0, 1] }],
      global,
    );
    assert.ok(result.ok);
    assert.deepEqual(result.value[0]!.definition.contexts, [0, 1]);
  });

  it('a single create without contexts keeps null (every context its integration types allow)', () => {
    const result = validateCreateCommand({ name: 'quiet', description: 'No DMs', dm_permission: false }, global);
    assert.ok(result.ok);
    assert.equal(result.value.contexts, null);
    assert.equal(result.value.dm_permission, false);
  });
});
