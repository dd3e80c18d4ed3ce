/**
 * Form bodies (`application/x-www-form-urlencoded`), read into a null-prototype record so that a
 * field named `__proto__` is a plain field (src/core/records.ts). Only the plugins whose routes
 * take forms add the parser (the OAuth2 token endpoint, the consent pages, the Slack-compatible
 * webhook execute): every other route answers a form body with the v10 invalid-content-type error
 * and writes nothing.
 */
import type { FastifyInstance } from 'fastify';
import { nullRecordFrom } from '../core/records.js';

/** Lets the routes of `plugin` (and of its children) read form bodies. */
export function acceptFormBodies(plugin: FastifyInstance): void {
  plugin.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    done(null, nullRecordFrom(new URLSearchParams(text)));
  });
}
