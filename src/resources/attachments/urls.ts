/**
 * The one signer of attachment URLs of a node: every rendering of a file (messages, their
 * dispatches, interactions' resolved attachments, components' media, the console through them)
 * asks it, and serving checks with it. Its key is the database's (`urlSigningKey`), so every node
 * of one database signs and checks alike; it is read once and kept.
 */
import { attachmentPath } from './rules/model.js';
import {
  ATTACHMENT_URL_TTL_MS,
  checkSignature,
  signedUrls,
  type AttachmentUrlOf,
  type SignatureCheck,
  type SignatureQuery,
} from './rules/signed-urls.js';

export interface AttachmentUrlsDeps {
  /** The key URLs are signed with, shared by every node of the database. */
  key: () => Promise<Uint8Array>;
  /** slashd's public URL, else the address it listens on (read at each signing: known once listening). */
  origin: () => string;
  now: () => number;
  /** How long a URL reads its file. */
  ttlMs?: number;
}

export class AttachmentUrls {
  private key: Promise<Uint8Array> | null = null;

  constructor(private readonly deps: AttachmentUrlsDeps) {}

  private signingKey(): Promise<Uint8Array> {
    if (this.key === null) {
      const reading = this.deps.key();
      // A database that failed once is asked again next time, not remembered as failed.
      reading.catch(() => {
        if (this.key === reading) this.key = null;
      });
      this.key = reading;
    }
    return this.key;
  }

  /** URLs signed now, for one rendering. */
  async urlOf(): Promise<AttachmentUrlOf> {
    return signedUrls(this.deps.origin(), await this.signingKey(), this.deps.now(), this.ttlMs());
  }

  /** What `query` says of the file `channelId/attachmentId/filename` (the filename as the URL's segment decodes). */
  async check(
    channelId: string,
    attachmentId: string,
    filename: string,
    query: SignatureQuery,
  ): Promise<SignatureCheck> {
    const path = attachmentPath(channelId, { id: attachmentId, filename });
    return checkSignature(path, query, await this.signingKey(), this.deps.now());
  }

  private ttlMs(): number {
    return this.deps.ttlMs ?? ATTACHMENT_URL_TTL_MS;
  }
}
