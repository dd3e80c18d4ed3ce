/**
 * The bytes of message attachments, in pieces of at most ATTACHMENT_CHUNK_BYTES (what a message's
 * document says of each file is in the message itself). Files are written piece by piece and read
 * piece by piece, so no whole upload is ever held in memory; a message's files go with it
 * (`InteractionStore.deleteMessage` deletes them in its transaction).
 */
import type { StoredAttachment } from './rules/model.js';

/** Who and where a file belongs to. */
export interface AttachmentOwner {
  /** The application whose message holds the file (or the user's id, for a user's own message). */
  readonly ownerId: string;
  readonly channelId: string;
  readonly messageId: string;
}

/** A file to store: what it is, and its bytes, read once, in order. */
export interface AttachmentFile {
  readonly id: string;
  readonly size: number;
  /** What v10 says of the file (its id and size are the two above). */
  readonly attachment: StoredAttachment;
  /** The file's pieces, each at most ATTACHMENT_CHUNK_BYTES; iterated once, a piece at a time. */
  readonly chunks: () => AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
}

/** What the store knows of a stored file. */
export interface StoredAttachmentFile {
  readonly attachment: StoredAttachment;
  readonly ownerId: string;
  readonly messageId: string;
  readonly size: number;
}

export interface AttachmentStore {
  /**
   * Stores every file of one message, all or none: no file is found until all are stored, and a
   * failure leaves none; an id taken already fails. Other work runs between the pieces.
   */
  putFiles(owner: AttachmentOwner, files: readonly AttachmentFile[]): Promise<void>;
  /** Where a file belongs, or null when no such file is stored. */
  findFile(channelId: string, attachmentId: string): Promise<StoredAttachmentFile | null>;
  /** The file's pieces in order (read one at a time, as the consumer asks), or null when it is not stored. */
  readFile(channelId: string, attachmentId: string): Promise<AsyncIterable<Uint8Array> | null>;
  /** Deletes these files of the channel (an edit that drops them, a message that was not written). */
  deleteFiles(channelId: string, attachmentIds: readonly string[]): Promise<void>;
  /** Bytes of all files the owner has stored: what its bound (APPLICATION_ATTACHMENT_BYTES_MAX) counts. */
  storedBytes(ownerId: string): Promise<number>;
  /**
   * The key attachment URLs are signed with: made once per database (the first caller's, however
   * many race), then the same for every node and every call; never part of a snapshot or a reset.
   */
  urlSigningKey(): Promise<Uint8Array>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** The bytes of message attachments. */
    readonly attachments: AttachmentStore;
  }
}
