/** `slashd serve --trust-proxy` (SLASHD_TRUST_PROXY): what it accepts and what it refuses. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseServeArgs } from '../src/cli/serve-args.js';
import { UsageError } from '../src/cli/usage.js';

describe('--trust-proxy', () => {
  it('is off by default, and with off', () => {
    assert.equal(parseServeArgs([], {}).trustProxy, undefined);
    assert.equal(parseServeArgs(['--trust-proxy', 'off'], {}).trustProxy, undefined);
  });

  it('takes a hop count, or addresses, CIDRs and range names; the flag wins over the environment', () => {
    assert.equal(parseServeArgs([], { SLASHD_TRUST_PROXY: '1' }).trustProxy, 1);
    assert.equal(
      parseServeArgs(['--trust-proxy', '10.0.0.5, 10.1.0.0/16,::1,loopback'], { SLASHD_TRUST_PROXY: '2' }).trustProxy,
      '10.0.0.5,10.1.0.0/16,::1,loopback',
    );
  });

  it('refuses anything else as a usage error', () => {
    for (const bad of ['0', '17', 'true', 'nginx', '10.0.0.0/33', '10.0.0.1/8/2', '']) {
      assert.throws(() => parseServeArgs(['--trust-proxy', bad], {}), UsageError, bad);
    }
  });
});
