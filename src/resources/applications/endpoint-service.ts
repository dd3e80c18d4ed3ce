/**
 * An app's interactions endpoint URL (docs/v10-behaviour.md#interactions): stored only after the endpoint answers
 * a signed PING with PONG and refuses a badly signed request with 401.
 */
import { invalidFormBody } from '../../core/io/errors.js';
import {
  APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID,
  URL_TYPE_INVALID_SCHEME,
  URL_TYPE_INVALID_URL,
} from '../../core/io/codes.js';
import { readRecord } from '../../core/io/read.js';
import type { Issues } from '../../core/io/report.js';
import { issue } from '../../core/io/issue.js';
import type { SnowflakeGenerator } from '../../core/snowflake.js';
import type { HttpDelivery } from '../../delivery/http-delivery.js';
import type { StoredApplication, WorldStore } from '../../store/store.js';

/** How long the endpoint has to answer each verification request, in ms. */
export const ENDPOINT_VERIFY_TIMEOUT_MS = 3_000;
/** Longest interactions endpoint URL accepted. */
export const ENDPOINT_URL_MAX_LENGTH = 2048;

const FIELD = 'interactions_endpoint_url';

function readUrl(value: unknown): string | null {
  if (value === null || value === '') return null;
  if (typeof value !== 'string' || value.length > ENDPOINT_URL_MAX_LENGTH) {
    throw invalidFormBody([issue([FIELD], URL_TYPE_INVALID_URL, 'Not a well formed URL.')]);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidFormBody([issue([FIELD], URL_TYPE_INVALID_URL, 'Not a well formed URL.')]);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidFormBody([
      issue(
        [FIELD],
        URL_TYPE_INVALID_SCHEME,
        `Scheme "${url.protocol.slice(0, -1)}" is not supported. Scheme must be one of ('http', 'https').`,
      ),
    ]);
  }
  return value;
}

export class EndpointService {
  constructor(
    private readonly store: WorldStore,
    private readonly delivery: HttpDelivery,
    private readonly ids: SnowflakeGenerator,
  ) {}

  async update(app: StoredApplication, body: unknown): Promise<StoredApplication> {
    const issues: Issues = [];
    const fields = readRecord(body, [], issues);
    if (!fields) throw invalidFormBody(issues);
    // Own fields only: `in` would also see what Object.prototype holds.
    if (!Object.hasOwn(fields, FIELD)) return app;
    const url = readUrl(fields[FIELD]);
    if (url !== null) {
      const ping = { id: this.ids.next(), application_id: app.id, type: 1, token: 'ping', version: 1 };
      const refusal = await this.delivery.verifyEndpoint(app, url, ping, ENDPOINT_VERIFY_TIMEOUT_MS);
      if (refusal) {
        const message =
          refusal.kind === 'unverified'
            ? 'The specified interactions endpoint url could not be verified.'
            : `The specified interactions endpoint url could not be verified: ${refusal.reason}`;
        throw invalidFormBody([issue([FIELD], APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID, message)]);
      }
    }
    const { keys: _keys, ...plain } = app;
    return this.store.putApplication({ ...plain, interactions_endpoint_url: url });
  }
}
