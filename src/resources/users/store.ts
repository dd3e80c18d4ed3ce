/**
 * Bot users' own profiles (`PATCH /users/@me`): one row per application whose bot set its name or
 * images, keyed by the application's id; the images' bytes beside it. The world store's
 * application reads join the row (`Application.bot_profile`), so every read of the bot shows it.
 */
import type { BotImage, BotImageKind, BotProfileWrite, StoredBotProfile } from './rules.js';

export type { BotImage, BotImageKind, BotProfileWrite, StoredBotProfile };

/** Plans an edit from the stored profile (null: none yet): the write, or a refusal (nothing written). */
export type BotProfilePlanner<T> = (current: StoredBotProfile | null) => { write: BotProfileWrite | null; outcome: T };

export interface BotProfileStore {
  /** The application's bot's profile, or null while it has set nothing. */
  getBotProfile(applicationId: string): Promise<StoredBotProfile | null>;
  /**
   * Reads the profile, plans with it and writes what the plan says, in one transaction (two nodes
   * renaming one bot at once count both changes); an image undefined is kept, null removed.
   */
  mutateBotProfile<T>(applicationId: string, plan: BotProfilePlanner<T>): Promise<T>;
  /** The bot's avatar or banner when its hash is `hash`. */
  getBotImage(applicationId: string, kind: BotImageKind, hash: string): Promise<BotImage | null>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** Bot users' own names and images. */
    readonly botProfiles: BotProfileStore;
  }
}
