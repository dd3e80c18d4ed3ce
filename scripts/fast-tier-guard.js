// Preloaded by `run-tests.js --fast` into each test process: the fast tier promises that its tests
// start no process and open no socket, and the import scan (fast-tier.js) only reads what a test
// imports. This makes the promise checked: a fast test that listens, connects or spawns fails,
// naming what it did, instead of quietly slowing the tier down.
import { ChildProcess } from 'node:child_process';
import { Server, Socket } from 'node:net';

/** Set by node's test runner in the processes running test files (not in the runner itself). */
const IN_TEST_PROCESS = process.env.NODE_TEST_CONTEXT !== undefined;

/** Replaces `owner.prototype[method]` by one that throws, saying what the test did. */
function refuse(owner, method, what) {
  owner.prototype[method] = function refused() {
    throw new Error(
      `a test of the fast tier ${what}: give its file an import scripts/fast-tier.js counts as starting something`,
    );
  };
}

if (IN_TEST_PROCESS) {
  refuse(Server, 'listen', 'listens on a socket');
  refuse(Socket, 'connect', 'opens a connection');
  refuse(ChildProcess, 'spawn', 'starts a process');
}
