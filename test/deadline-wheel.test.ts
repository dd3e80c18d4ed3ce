/** The one timer for every request's deadline: what expires, what was settled before, and the 503 it gives. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DeadlineWheel } from '../src/http/deadline-wheel.js';

test('a deadline expires once, marked expired; one settled before its slot came due never does', async () => {
  const wheel = new DeadlineWheel();
  // The wheel's timer is unref'd (a server's sockets keep the process up): this test's must not exit first.
  const keepAlive = setInterval(() => {}, 1000);
  let settledRan = false;
  const settled = wheel.wait(0, () => {
    settledRan = true;
  });
  wheel.settle(settled);
  let expiredRuns = 0;
  const expired = await new Promise<ReturnType<DeadlineWheel['wait']>>((resolve) => {
    const pending = wheel.wait(0, () => {
      expiredRuns++;
      resolve(pending);
    });
  });
  // Both waited in the same slot or the settled one in an earlier: the sweep that expired one has passed the other.
  assert.equal(expired.expired, true);
  assert.equal(expiredRuns, 1);
  assert.equal(settledRan, false);
  assert.equal(settled.expired, false);
  wheel.stop();
  clearInterval(keepAlive);
});

test('a stopped wheel drops what waits and keeps no timer', () => {
  const wheel = new DeadlineWheel();
  const pending = wheel.wait(60_000, () => assert.fail('expired after stop'));
  wheel.stop();
  assert.equal(pending.expired, false);
});
