/**
 * The files of a guild's emojis and stickers (`Store.expressionAssets`); what they are (name, roles,
 * tags) is the guild's document's (docs/decisions.md, "Emojis and stickers").
 */

/** Which kind of expression a file is of. */
export type ExpressionKind = 'emoji' | 'sticker';

export interface ExpressionAsset {
  /** The emoji's or sticker's id. */
  id: string;
  guild_id: string;
  kind: ExpressionKind;
  content_type: string;
  bytes: Uint8Array;
}

export interface ExpressionAssetStore {
  /**
   * Stores a file, unless the guild already holds `maxPerGuild` files of its kind ('full': nothing
   * written). The count and the write are one transaction.
   */
  putAsset(asset: ExpressionAsset, maxPerGuild: number): Promise<'done' | 'full'>;
  /** The file of the expression of `id` and `kind`, or null. */
  getAsset(kind: ExpressionKind, id: string): Promise<ExpressionAsset | null>;
  /** Removes the guild's file of `id`; whether there was one. */
  deleteAsset(guildId: string, id: string): Promise<boolean>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** The files of guild emojis and stickers. */
    readonly expressionAssets: ExpressionAssetStore;
  }
}
