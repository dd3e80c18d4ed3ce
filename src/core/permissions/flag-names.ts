/**
 * The v10 names of permission flags, by bit (as discord-api-types spells them in SCREAMING_CASE),
 * so an explanation can say which permission is missing rather than print a bit set.
 */

/** Index = bit number; `null` for a bit v10 leaves unassigned. */
const FLAG_NAMES: readonly (string | null)[] = [
  'CREATE_INSTANT_INVITE',
  'KICK_MEMBERS',
  'BAN_MEMBERS',
  'ADMINISTRATOR',
  'MANAGE_CHANNELS',
  'MANAGE_GUILD',
  'ADD_REACTIONS',
  'VIEW_AUDIT_LOG',
  'PRIORITY_SPEAKER',
  'STREAM',
  'VIEW_CHANNEL',
  'SEND_MESSAGES',
  'SEND_TTS_MESSAGES',
  'MANAGE_MESSAGES',
  'EMBED_LINKS',
  'ATTACH_FILES',
  'READ_MESSAGE_HISTORY',
  'MENTION_EVERYONE',
  'USE_EXTERNAL_EMOJIS',
  'VIEW_GUILD_INSIGHTS',
  'CONNECT',
  'SPEAK',
  'MUTE_MEMBERS',
  'DEAFEN_MEMBERS',
  'MOVE_MEMBERS',
  'USE_VAD',
  'CHANGE_NICKNAME',
  'MANAGE_NICKNAMES',
  'MANAGE_ROLES',
  'MANAGE_WEBHOOKS',
  'MANAGE_GUILD_EXPRESSIONS',
  'USE_APPLICATION_COMMANDS',
  'REQUEST_TO_SPEAK',
  'MANAGE_EVENTS',
  'MANAGE_THREADS',
  'CREATE_PUBLIC_THREADS',
  'CREATE_PRIVATE_THREADS',
  'USE_EXTERNAL_STICKERS',
  'SEND_MESSAGES_IN_THREADS',
  'USE_EMBEDDED_ACTIVITIES',
  'MODERATE_MEMBERS',
  'VIEW_CREATOR_MONETIZATION_ANALYTICS',
  'USE_SOUNDBOARD',
  'CREATE_GUILD_EXPRESSIONS',
  'CREATE_EVENTS',
  'USE_EXTERNAL_SOUNDS',
  'SEND_VOICE_MESSAGES',
  null,
  'SET_VOICE_CHANNEL_STATUS',
  'SEND_POLLS',
  'USE_EXTERNAL_APPS',
  'PIN_MESSAGES',
  'BYPASS_SLOWMODE',
];

/** The names of the flags of `bits`, lowest bit first; bits v10 does not define are named by number. */
export function flagNames(bits: bigint): string[] {
  const names: string[] = [];
  for (let bit = 0n; bits >> bit !== 0n; bit += 1n) {
    if (((bits >> bit) & 1n) === 0n) continue;
    names.push(FLAG_NAMES[Number(bit)] ?? `1<<${bit}`);
  }
  return names;
}
