/**
 * Which routes a `/webhooks/{id}/{token}` path goes to: the interaction webhook's when the token is
 * an interaction token of the path's application, a channel webhook's otherwise (a token of
 * another application, any other token, a token that is not percent-encoded text).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { makeInteractionToken } from '../interactions/rules/lifecycle.js';
import { webhookKind } from './routes.js';

const APP = '1324165260902400001';
const OTHER = '1324165260902400002';

describe('telling the interaction webhook from a channel webhook', () => {
  test('an interaction token of the path’s application: the interaction’s routes, on every served prefix', () => {
    const token = makeInteractionToken(APP, '1500000000000000001', 'secret');
    for (const prefix of ['/api/v10', '/api/v9', '/api']) {
      assert.equal(webhookKind(`${prefix}/webhooks/${APP}/${token}`), 'interaction');
      assert.equal(webhookKind(`${prefix}/webhooks/${APP}/${token}/messages/@original?thread_id=1`), 'interaction');
    }
  });

  test('anything else: a channel webhook’s routes', () => {
    const ofOther = makeInteractionToken(OTHER, '1500000000000000001', 'secret');
    assert.equal(webhookKind(`/api/v10/webhooks/${APP}/${ofOther}`), 'channel');
    assert.equal(webhookKind(`/api/v10/webhooks/${APP}/${'x'.repeat(68)}?wait=true`), 'channel');
    assert.equal(webhookKind(`/api/v10/webhooks/${APP}/%E0%A4%A`), 'channel');
    assert.equal(webhookKind('/api/v10/channels/1/messages'), 'channel');
  });
});
