import { generateKeyPairSync } from 'node:crypto';
import type { ApplicationKeys } from './store.js';

/** A fresh Ed25519 key pair for signing an application's interactions. */
export function generateApplicationKeys(): ApplicationKeys {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  // The raw 32-byte key is the tail of the DER encoding; v10 publishes it as hex.
  const verifyKey = spki.subarray(spki.length - 32).toString('hex');
  const privateKeyPem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  return { verifyKey, privateKeyPem };
}
