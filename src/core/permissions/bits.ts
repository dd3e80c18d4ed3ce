/**
 * Permission flags and bit sets (docs/v10-behaviour.md#permissions). v10 serializes a bit set as a decimal string of
 * arbitrary size, so the core keeps every bit set as a bigint and never goes through `number`.
 * The flags are discord-api-types' `PermissionFlagsBits` (bigints too), under the SCREAMING_CASE
 * names the call sites and docs use.
 */
import { PermissionFlagsBits } from 'discord-api-types/v10';

/** Create invites to a channel. */
export const CREATE_INSTANT_INVITE = PermissionFlagsBits.CreateInstantInvite;
/** Ban members from the guild (and lift their bans). */
export const BAN_MEMBERS = PermissionFlagsBits.BanMembers;
/** Everything, in every channel; overwrites cannot take it away. */
export const ADMINISTRATOR = PermissionFlagsBits.Administrator;
/** Create, edit and delete channels. */
export const MANAGE_CHANNELS = PermissionFlagsBits.ManageChannels;
/** Edit the guild's settings; half of what editing command permissions needs. */
export const MANAGE_GUILD = PermissionFlagsBits.ManageGuild;
/** Add a new emoji's reaction to a message (reacting with one already there needs only to read it). */
export const ADD_REACTIONS = PermissionFlagsBits.AddReactions;
/** Delete and pin others' messages, bulk delete (v10). */
export const MANAGE_MESSAGES = PermissionFlagsBits.ManageMessages;
/** Mention @everyone and @here, and roles that are not mentionable. */
export const MENTION_EVERYONE = PermissionFlagsBits.MentionEveryone;
/** See a channel at all. */
export const VIEW_CHANNEL = PermissionFlagsBits.ViewChannel;
/** Send messages in a channel that is not a thread; invoking a USER command needs it. */
export const SEND_MESSAGES = PermissionFlagsBits.SendMessages;
/** Attach files to the messages one sends in a channel. */
export const ATTACH_FILES = PermissionFlagsBits.AttachFiles;
/** Read a channel's earlier messages; v10 needs it with VIEW_CHANNEL to read any history. */
export const READ_MESSAGE_HISTORY = PermissionFlagsBits.ReadMessageHistory;
/** Manage roles below one's highest role; the other half of what editing command permissions needs. */
export const MANAGE_ROLES = PermissionFlagsBits.ManageRoles;
/** Use application commands in a channel (slashd's gate before any command overwrite; docs/permissions.md). */
export const USE_APPLICATION_COMMANDS = PermissionFlagsBits.UseApplicationCommands;
/** See and manage every thread, private ones included. */
export const MANAGE_THREADS = PermissionFlagsBits.ManageThreads;
/** Start public and announcement threads. */
export const CREATE_PUBLIC_THREADS = PermissionFlagsBits.CreatePublicThreads;
/** Start private threads. */
export const CREATE_PRIVATE_THREADS = PermissionFlagsBits.CreatePrivateThreads;
/** Send messages in threads: what SEND_MESSAGES is outside them. */
export const SEND_MESSAGES_IN_THREADS = PermissionFlagsBits.SendMessagesInThreads;
/** Pin and unpin messages (v10 split it from MANAGE_MESSAGES). */
export const PIN_MESSAGES = PermissionFlagsBits.PinMessages;
/** Use commands of user-installed apps in a guild (no world install is a user install yet). */
export const USE_EXTERNAL_APPS = PermissionFlagsBits.UseExternalApps;
/** Remove members from the guild (v10 kick). */
export const KICK_MEMBERS = PermissionFlagsBits.KickMembers;
/** Read the guild's audit log. */
export const VIEW_AUDIT_LOG = PermissionFlagsBits.ViewAuditLog;
/** Change one's own nickname. */
export const CHANGE_NICKNAME = PermissionFlagsBits.ChangeNickname;
/** Change other members' nicknames. */
export const MANAGE_NICKNAMES = PermissionFlagsBits.ManageNicknames;
/** Time members out (v10 `communication_disabled_until`). */
export const MODERATE_MEMBERS = PermissionFlagsBits.ModerateMembers;
/** Server-mute members in voice. */
export const MUTE_MEMBERS = PermissionFlagsBits.MuteMembers;
/** Server-deafen members in voice. */
export const DEAFEN_MEMBERS = PermissionFlagsBits.DeafenMembers;

/**
 * Every flag v10 defines (bits 0 to 52 but 47 today): what an owner or administrator has in any channel.
 * Like discord.js's `PermissionsBitField.All`, it is every flag of discord-api-types joined, so
 * client-side `has()` checks agree.
 */
export const ALL = Object.values(PermissionFlagsBits).reduce((bits, flag) => bits | flag, 0n);
/** The empty bit set. */
export const NONE = 0n;

/** A decimal bit-set string: digits only, no sign, no exponent, any length. */
const DECIMAL_BIT_SET = /^\d+$/;

/** True for a value v10 accepts as a permission bit-set string. */
export function isDecimalBitSet(value: unknown): value is string {
  return typeof value === 'string' && DECIMAL_BIT_SET.test(value);
}

/**
 * The bit set a decimal string (or a non-negative safe integer, as discord.py sends) stands for.
 * Anything else is the empty set: a malformed bit set must grant nothing, and must not throw.
 */
export function parsePermissions(value: unknown): bigint {
  if (isDecimalBitSet(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'bigint' && value >= 0n) return value;
  return NONE;
}

/** The wire form of a bit set; a negative value (no valid bit set) formats as "0". */
export function formatPermissions(bits: bigint): string {
  return bits < 0n ? '0' : bits.toString();
}

/** True when `bits` holds every bit of `required` (vacuously true for the empty set). */
export function hasAll(bits: bigint, required: bigint): boolean {
  return (bits & required) === required;
}

/** True when `bits` holds at least one bit of `flags`. */
export function hasAny(bits: bigint, flags: bigint): boolean {
  return (bits & flags) !== 0n;
}

/** `bits` with an overwrite applied: its deny bits cleared first, then its allow bits set. */
export function applyOverwrite(bits: bigint, allow: bigint, deny: bigint): bigint {
  return (bits & ~deny) | allow;
}
