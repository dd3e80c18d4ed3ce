/**
 * The outbound policy's pure half: which addresses are which, what each mode allows, and that
 * numeric host forms are normalised by WHATWG URL before the check sees them.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  checkEndpointUrl,
  classAllowed,
  classifyAddress,
  DEFAULT_OUTBOUND_POLICY,
  type AddressClass,
  type OutboundPolicy,
} from '../src/core/outbound-policy.js';

const PUBLIC_ONLY: OutboundPolicy = { mode: 'public-only', allowPrivate: false };
const TRUSTED: OutboundPolicy = { mode: 'default', allowPrivate: true };

const CASES: Record<AddressClass, string[]> = {
  public: [
    '1.1.1.1',
    '8.8.8.8',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.1.1',
    '2606:4700:4700::1111',
    '2001:4860::8888',
  ],
  loopback: ['127.0.0.1', '127.255.255.254', '::1', '[::1]', '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:0:0:1'],
  private: [
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '100.64.0.1',
    '100.127.255.255',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:10.1.2.3',
    '::ffff:c0a8:101',
    '64:ff9b::a00:1',
    '2002:a00:1::1',
    'fec0::1',
  ],
  'link-local': [
    '169.254.169.254',
    '169.254.0.1',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
  ],
  multicast: ['224.0.0.1', '239.255.255.250', 'ff02::1', 'ff05::2'],
  reserved: [
    '0.0.0.0',
    '0.1.2.3',
    '240.0.0.1',
    '255.255.255.255',
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9',
    '198.18.0.1',
    '192.0.0.8',
    '::',
    '::0',
    '::1.2.3.4',
    '2001:db8::1',
    '100::1',
  ],
  'not-an-ip': ['example.com', 'localhost', '', '1.2.3', '1.2.3.256', '::g', '1::2::3', '1:2:3:4:5:6:7:8:9'],
};

describe('classifyAddress', () => {
  for (const [kind, addresses] of Object.entries(CASES)) {
    test(`${kind}: ${addresses.length} addresses`, () => {
      for (const address of addresses) assert.equal(classifyAddress(address), kind, address);
    });
  }
});

describe('the modes', () => {
  test('default: public and loopback; public-only: public; --allow-private-endpoints adds private and link-local', () => {
    const allowed = (policy: OutboundPolicy) =>
      (Object.keys(CASES) as AddressClass[]).filter((kind) => classAllowed(policy, kind)).sort();
    assert.deepEqual(allowed(DEFAULT_OUTBOUND_POLICY), ['loopback', 'public']);
    assert.deepEqual(allowed(PUBLIC_ONLY), ['public']);
    assert.deepEqual(allowed(TRUSTED), ['link-local', 'loopback', 'private', 'public']);
    assert.deepEqual(allowed({ mode: 'public-only', allowPrivate: true }), [
      'link-local',
      'loopback',
      'private',
      'public',
    ]);
  });
});

describe('checkEndpointUrl', () => {
  test('numeric host forms reach the check as the dotted quad they mean', () => {
    for (const host of ['127.1', '2130706433', '0x7f.1', '0177.0.0.1', '017700000001', '127.0.0.1.']) {
      const url = new URL(`http://${host}:8080/i`);
      assert.equal(url.hostname, '127.0.0.1', host);
      assert.equal(checkEndpointUrl(DEFAULT_OUTBOUND_POLICY, url), null, `${host} is loopback, allowed by default`);
      assert.equal(checkEndpointUrl(PUBLIC_ONLY, url), 'address', `${host} is refused under public-only`);
    }
    for (const host of [
      '0',
      '0x0',
      '[::]',
      '[::ffff:a9fe:a9fe]',
      '[::ffff:169.254.169.254]',
      '2852039166',
      '0xa9.0xfe.0xa9.0xfe',
      '10.1',
      '3232235777',
    ]) {
      assert.equal(checkEndpointUrl(DEFAULT_OUTBOUND_POLICY, new URL(`http://${host}/`)), 'address', host);
    }
  });

  test('credentials in the URL are refused, whatever the host', () => {
    for (const url of ['http://user:pw@127.0.0.1/', 'http://user@example.com/', 'https://:pw@example.com/']) {
      assert.equal(checkEndpointUrl(TRUSTED, new URL(url)), 'userinfo', url);
    }
  });

  test('a host name is left to the connect-time check', () => {
    assert.equal(checkEndpointUrl(PUBLIC_ONLY, new URL('https://localhost/')), null);
    assert.equal(checkEndpointUrl(PUBLIC_ONLY, new URL('https://app.example.com/i')), null);
  });
});
