/** Ed25519 signatures over timestamp + body, as v10 apps verify them (docs/v10-behaviour.md#interactions). */
import { createPrivateKey, randomBytes, sign, type KeyObject } from 'node:crypto';
import type { StoredApplication } from '../store/store.js';

export interface SignedRequest {
  body: string;
  headers: { 'x-signature-ed25519': string; 'x-signature-timestamp': string; 'content-type': string };
}

export class InteractionSigner {
  /** Parsing a PEM key costs more than signing with it: one KeyObject per application. */
  private readonly keys = new Map<string, { pem: string; key: KeyObject }>();

  private keyOf(app: StoredApplication): KeyObject {
    const cached = this.keys.get(app.id);
    if (cached && cached.pem === app.keys.privateKeyPem) return cached.key;
    const key = createPrivateKey(app.keys.privateKeyPem);
    this.keys.set(app.id, { pem: app.keys.privateKeyPem, key });
    return key;
  }

  sign(app: StoredApplication, body: string, nowMs: number): SignedRequest {
    const timestamp = Math.floor(nowMs / 1000).toString();
    const signature = sign(null, Buffer.from(timestamp + body), this.keyOf(app)).toString('hex');
    return {
      body,
      headers: {
        'x-signature-ed25519': signature,
        'x-signature-timestamp': timestamp,
        'content-type': 'application/json',
      },
    };
  }

  /** A request whose signature is wrong: an endpoint must refuse it before slashd trusts the URL. */
  badlySigned(body: string, nowMs: number): SignedRequest {
    return {
      body,
      headers: {
        'x-signature-ed25519': randomBytes(64).toString('hex'),
        'x-signature-timestamp': Math.floor(nowMs / 1000).toString(),
        'content-type': 'application/json',
      },
    };
  }
}
