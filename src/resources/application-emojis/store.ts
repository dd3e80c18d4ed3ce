/**
 * An application's own emojis (`Store.applicationEmojis`): every read and write keyed by the
 * application id, but for the two reads of what v10 shows anyone of an emoji (its image at the
 * CDN-like path, and its id, name and application for a reaction's object), which look ids up alone.
 */

/** An application emoji as stored (its image apart). */
export interface StoredApplicationEmoji {
  id: string;
  application_id: string;
  name: string;
  animated: boolean;
}

/** An emoji's image. */
export interface ApplicationEmojiFile {
  content_type: string;
  bytes: Uint8Array;
}

/** What a create came to: written, or refused (nothing written) at the bound or for a name taken. */
export type ApplicationEmojiCreation = 'created' | 'full' | 'name_taken';
/** What a rename came to. */
export type ApplicationEmojiRename = 'renamed' | 'unknown' | 'name_taken';

export interface ApplicationEmojiStore {
  /**
   * Writes the emoji and its image unless the application holds `max` emojis already or one of the
   * same name; the count, the name's check and the write are one transaction.
   */
  create(emoji: StoredApplicationEmoji, file: ApplicationEmojiFile, max: number): Promise<ApplicationEmojiCreation>;
  /** The application's emojis, oldest first (ids as numbers). */
  list(applicationId: string): Promise<StoredApplicationEmoji[]>;
  get(applicationId: string, id: string): Promise<StoredApplicationEmoji | null>;
  /** Renames the application's emoji, unless another of its emojis has the name. */
  rename(applicationId: string, id: string, name: string): Promise<ApplicationEmojiRename>;
  /** Removes the emoji and its image; whether there was one. */
  delete(applicationId: string, id: string): Promise<boolean>;
  /** The image of the emoji of `id`, whichever application's (the CDN-like path names the id alone). */
  getFile(id: string): Promise<ApplicationEmojiFile | null>;
  /** The emojis of these ids, whichever application's (a reaction names its emoji by id alone). */
  findByIds(ids: readonly string[]): Promise<StoredApplicationEmoji[]>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** Applications' own emojis and their images. */
    readonly applicationEmojis: ApplicationEmojiStore;
  }
}

/** The most ids one `findByIds` reads: a message holds at most 20 reaction emojis. */
export const FIND_BY_IDS_MAX = 100;
