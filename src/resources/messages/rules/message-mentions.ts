/**
 * Who a message mentions (v10's `mentions`, `mention_roles`, `mention_everyone`): the members,
 * roles and @everyone/@here its content names, as far as `allowed_mentions` lets them be mentioned,
 * and for a reply its replied-to author unless `allowed_mentions` says otherwise. A bot without
 * MESSAGE_CONTENT reads the content of a message that mentions it (`messageForIntents`).
 *
 * Decisions: a user mention counts only for a member of the guild (a user or a bot); a role mention
 * for a role of the guild other than @everyone (the world has no `mentionable` flag: every role is);
 * @everyone and @here need MENTION_EVERYONE, as in v10.
 */
import { isRecord, type JsonRecord } from '../../../core/io/read.js';

/** The mentions a message records (ids; rendered as user objects and role ids). */
export interface MessageMentions {
  users: string[];
  roles: string[];
  everyone: boolean;
}

/** What the guild and the author allow. */
export interface MentionPlace {
  /** True for a member of the message's guild (a user, or a bot by its application id). */
  isMember(id: string): boolean;
  /** True for a role of the guild that may be mentioned. */
  isRole(id: string): boolean;
  /** The author holds MENTION_EVERYONE in the channel. */
  mayMentionEveryone: boolean;
}

const USER_MENTION = /<@!?(\d{1,20})>/g;
const ROLE_MENTION = /<@&(\d{1,20})>/g;
const EVERYONE_MENTION = /@(?:everyone|here)\b/;

function idList(allowed: JsonRecord, key: 'users' | 'roles'): readonly unknown[] {
  const ids = allowed[key];
  return Array.isArray(ids) ? ids : [];
}

/** Whether `allowed_mentions` lets a mention of this kind (and id) notify; absent lets everything. */
function allows(allowed: JsonRecord | undefined, kind: 'users' | 'roles' | 'everyone', id?: string): boolean {
  if (!allowed) return true;
  const parse = Array.isArray(allowed.parse) ? allowed.parse : [];
  if (parse.includes(kind)) return true;
  return kind !== 'everyone' && id !== undefined && idList(allowed, kind).includes(id);
}

function matchedIds(content: string, pattern: RegExp): string[] {
  return [...new Set(Array.from(content.matchAll(pattern), (match) => match[1]!))];
}

/** The ids `content` names as users (`<@id>`, `<@!id>`), each once. */
export function userMentionIds(content: string): string[] {
  return matchedIds(content, USER_MENTION);
}

/**
 * The mentions of `content` under `allowedMentions` (the body's checked `allowed_mentions`, or
 * undefined), with `repliedAuthorId` for a reply.
 */
export function mentionsOf(
  content: string,
  allowedMentions: unknown,
  place: MentionPlace,
  repliedAuthorId?: string,
): MessageMentions {
  const allowed = isRecord(allowedMentions) ? allowedMentions : undefined;
  const users = matchedIds(content, USER_MENTION).filter((id) => place.isMember(id) && allows(allowed, 'users', id));
  const mentionsReplied = allowed === undefined || allowed.replied_user === true;
  if (repliedAuthorId !== undefined && mentionsReplied && !users.includes(repliedAuthorId)) users.push(repliedAuthorId);
  return {
    users,
    roles: matchedIds(content, ROLE_MENTION).filter((id) => place.isRole(id) && allows(allowed, 'roles', id)),
    everyone: place.mayMentionEveryone && EVERYONE_MENTION.test(content) && allows(allowed, 'everyone'),
  };
}
