/**
 * The one store contract suite. An implementation runs it from its own test file, e.g.
 * `describeStoreContract('PostgreSQL', makePostgresStores)`, and must pass it unchanged.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeAttachmentStoreContract } from './attachment-store.contract.js';
import { describeAuditLogContract } from './audit-log.contract.js';
import { describeCommandStoreContract } from './command-store.contract.js';
import { freshDatabasePerTest, type MakeStores } from './harness.js';
import { describeGuildMembersContract } from './guild-members.contract.js';
import { describeGuildStructureContract } from './guild-structure.contract.js';
import { describeInteractionStoreContract } from './interaction-store.contract.js';
import { describeNodeLeaseStoreContract } from './node-lease-store.contract.js';
import { describeSnapshotStoreContract } from './snapshot-store.contract.js';
import { describeOAuth2GrantsContract } from './oauth2-grants.contract.js';
import { describeReactionStoreContract } from './reaction-store.contract.js';
import { describeWorldStoreContract } from './world-store.contract.js';
import { describeThreadsContract } from './threads.contract.js';

export type { ContractDatabase, ContractOptions, MakeStores } from './harness.js';
export { describeAttachmentStoreContract } from './attachment-store.contract.js';
export { describeAuditLogContract } from './audit-log.contract.js';
export { describeCommandStoreContract } from './command-store.contract.js';
export { describeGuildMembersContract } from './guild-members.contract.js';
export { describeGuildStructureContract } from './guild-structure.contract.js';
export { describeInteractionStoreContract } from './interaction-store.contract.js';
export { describeNodeLeaseStoreContract } from './node-lease-store.contract.js';
export { describeSnapshotStoreContract } from './snapshot-store.contract.js';
export { describeWorldStoreContract } from './world-store.contract.js';
export { describeOAuth2GrantsContract } from './oauth2-grants.contract.js';
export { describeReactionStoreContract } from './reaction-store.contract.js';
export { describeThreadsContract } from './threads.contract.js';

/** The aggregate: answers `ping` while open, rejects it once closed, and closes twice without harm. */
export function describeStoreLifecycleContract(name: string, make: MakeStores): void {
  describe(`${name}: Store`, () => {
    const t = freshDatabasePerTest(make);

    it('pings while open; a closed store fails its ping and closes again quietly', async () => {
      const other = await t.db.connect();
      await other.ping();
      await other.close();
      await assert.rejects(other.ping());
      await other.close();
      await t.stores.ping();
    });
  });
}

export function describeStoreContract(name: string, make: MakeStores): void {
  describeStoreLifecycleContract(name, make);
  describeWorldStoreContract(name, make);
  describeGuildMembersContract(name, make);
  describeGuildStructureContract(name, make);
  describeCommandStoreContract(name, make);
  describeInteractionStoreContract(name, make);
  describeNodeLeaseStoreContract(name, make);
  describeSnapshotStoreContract(name, make);
  describeOAuth2GrantsContract(name, make);
  describeAttachmentStoreContract(name, make);
  describeReactionStoreContract(name, make);
  describeThreadsContract(name, make);
  describeAuditLogContract(name, make);
}
