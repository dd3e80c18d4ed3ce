/**
 * What the user pastes into "Join a guild": an invite code, or a link ending in one
 * (`https://discord.gg/abc`, `…/invite/abc`, slashd's own `/invite/abc`), as v10's client takes it.
 */

/** v10's invite codes: letters, digits and dashes (vanity URLs), at most 100. */
const INVITE_CODE = /^[A-Za-z0-9-]{1,100}$/;
/** `/invite/<code>` anywhere in a link, or a `discord.gg/<code>` short link. */
const INVITE_LINK = /(?:\/invite\/|discord\.gg\/)([^/?#\s]+)/i;

/** The code in what was pasted, or null when it holds none. */
export function inviteCodeOf(pasted: string): string | null {
  const text = pasted.trim();
  const code = INVITE_LINK.exec(text)?.[1] ?? text;
  return INVITE_CODE.test(code) ? code : null;
}

/** v10's codes of a refused join, and how the client words them. */
const JOIN_REFUSALS: Record<number, string> = {
  10006: 'This invite is invalid or has expired.',
  40007: 'You are banned from this guild.',
  40006: 'Joining this guild by invite is switched off.',
};

/** A refused join as the user reads it; the server's own message for anything else. */
export function joinRefusalText(code: number | undefined, message: string): string {
  return (code !== undefined && JOIN_REFUSALS[code]) || message;
}
