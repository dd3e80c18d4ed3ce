// Preloaded by `run-tests.js` into each test process: the fast tier promises that its tests start
// no process and open no socket, and the import scan (fast-tier.js) only reads what a test imports.
// This makes the promise checked: a fast test that listens, connects or spawns fails, naming what
// it did, instead of quietly slowing the tier (or its shared process) down. It acts only in the
// processes of the fast tier's files, which run-tests.js lists in SLASHD_FAST_TIER_FILES.
import { ChildProcess } from 'node:child_process';
import { Server, Socket } from 'node:net';
import { resolve } from 'node:path';

/** The test files of the fast tier (or the shards importing them), as run-tests.js passed them. */
const FAST_FILES = new Set(JSON.parse(process.env.SLASHD_FAST_TIER_FILES ?? '[]').map((file) => resolve(file)));
/** Whether this is a process node's test runner started for a file of the fast tier. */
const IN_FAST_TEST_PROCESS =
  process.env.NODE_TEST_CONTEXT !== undefined &&
  process.argv[1] !== undefined &&
  FAST_FILES.has(resolve(process.argv[1]));

/** Replaces `owner.prototype[method]` by one that throws, saying what the test did. */
function refuse(owner, method, what) {
  owner.prototype[method] = function refused() {
    throw new Error(
      `a test of the fast tier ${what}: give its file an import scripts/fast-tier.js counts as starting something`,
    );
  };
}

if (IN_FAST_TEST_PROCESS) {
  refuse(Server, 'listen', 'listens on a socket');
  refuse(Socket, 'connect', 'opens a connection');
  refuse(ChildProcess, 'spawn', 'starts a process');
}
