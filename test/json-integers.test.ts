/**
 * Snowflakes sent as JSON integers (discord.py does) arrive exactly: integer literals past 2^53 are
 * quoted before parsing, everything else of the text is left as it was.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { quoteUnsafeIntegers } from '../src/core/io/json-integers.js';

describe('quoteUnsafeIntegers', () => {
  it('quotes integers past 2^53 wherever they stand', () => {
    const text =
      '{"message_reference":{"message_id":1575176783060926511},"messages":[18446744073709551615,-9007199254740993]}';
    assert.deepEqual(JSON.parse(quoteUnsafeIntegers(text)), {
      message_reference: { message_id: '1575176783060926511' },
      messages: ['18446744073709551615', '-9007199254740993'],
    });
  });

  it('leaves safe integers, fractions, exponents and strings alone', () => {
    for (const text of [
      '[9007199254740991, -9007199254740991, 0, 1.5, -3e40, 12345678901234567890.5]',
      '{"content":"1575176783060926511 and \\"1575176783060926511\\""}',
      '{"a":true,"b":null,"c":"\\\\"}',
      '',
    ]) {
      assert.equal(quoteUnsafeIntegers(text), text);
    }
  });
});
