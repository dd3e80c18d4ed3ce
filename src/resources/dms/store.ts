/** DM channels between an app's bot and a user, as rows of their own, and the world's group DMs (`Store.dms`). */
import type { GroupDm } from '../../core/world/types.js';

/** The DM channel (v10 type 1) between an app's bot and a user: one per pair. */
export interface DmChannel {
  id: string;
  application_id: string;
  user_id: string;
}

export interface DmChannelStore {
  /**
   * The pair's DM channel: the one stored, or a new one of id `newId` (one statement, so two
   * racing opens return the same channel).
   */
  openDmChannel(applicationId: string, userId: string, newId: string): Promise<DmChannel>;
  getDmChannel(channelId: string): Promise<DmChannel | null>;
  /** The user's DM channels, by id. */
  listDmChannelsOfUser(userId: string): Promise<DmChannel[]>;
  /** The world's group DM of this id (the world store writes them). */
  getGroupDm(channelId: string): Promise<GroupDm | null>;
  /** The group DMs the user is a recipient of, by id. */
  listGroupDmsOfUser(userId: string): Promise<GroupDm[]>;
}

declare module '../../store/store.js' {
  interface ResourceStores {
    /** DM channels between an app's bot and a user. */
    readonly dms: DmChannelStore;
  }
}
