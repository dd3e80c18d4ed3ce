/** The shapes checking an invocation works with and produces (v10 API, "Interactions received by the app"). */
import type { OptionDefinition, OptionTypeValue } from '../../../core/commands/model.js';
import type { Channel, Guild, User } from '../../../core/world/types.js';
import type { ChannelMessage } from '../../messages/rules/messages.js';

/** What ids of an invocation may resolve to. */
export interface InvocationTarget {
  /** null outside guilds (a DM or a private channel). */
  guild: Guild | null;
  /** The channel the command is invoked in. */
  channel: Channel;
  /**
   * Messages available for MESSAGE command targets: world messages and stored ones (responses,
   * follow-ups). Only messages the invoking user can see belong here (see `messageVisibleTo`).
   */
  messages: ChannelMessage[];
  /** Every user of the world: a USER option may name a user who is not a member. */
  users: User[];
}

export type InvocationKind = 'command' | 'autocomplete';

/** One entry of `data.options` as the app receives it (docs/v10-behaviour.md#interactions). */
export interface WireDataOption {
  name: string;
  type: OptionTypeValue;
  /** Absent on subcommands and groups; a string for the focused option of an autocomplete request. */
  value?: string | number | boolean;
  /** Subcommands and groups only: never together with `value`. */
  options?: WireDataOption[];
  /** Autocomplete only: the option being typed. */
  focused?: true;
}

/** Ids an invocation mentions, each list without repeats, in the order they appear. */
export interface ReferencedIds {
  users: string[];
  /** Users who are members of the guild; each is also in `users`. */
  members: string[];
  roles: string[];
  channels: string[];
  messages: string[];
  attachments: string[];
}

export interface FocusedOption {
  /** Default names from the command down to the option, e.g. ['group', 'sub', 'query']. */
  path: string[];
  option: OptionDefinition;
}

export interface CheckedInvocation {
  /** data.options normalized to the wire shape the app receives (default names, typed values, nested for subcommands, focused on autocomplete). */
  options: WireDataOption[] | undefined;
  /** The option being autocompleted (autocomplete only). */
  focused: FocusedOption | null;
  /** ids that options or target reference, for data.resolved. */
  referenced: ReferencedIds;
  target_id: string | null;
}
