/**
 * The GitHub-compatible execute (`POST /webhooks/{id}/{token}/github`): a GitHub webhook delivery,
 * named by its `X-GitHub-Event` header, read into one embed as v10 posts it (docs/decisions.md,
 * "Webhooks: /slack and /github"). The events mapped are `GITHUB_EVENTS`; any other (`ping` too)
 * posts nothing and is answered 204 all the same, as v10 does.
 */
import { isRecord, type JsonRecord } from '../../../core/io/read.js';
import { EMBED_DESCRIPTION_LENGTH_MAX, EMBED_TITLE_LENGTH_MAX } from '../../messages/rules/limits.js';

type Json = Record<string, unknown>;

/** The most commits a push's embed lists (v10 lists the first five). */
export const GITHUB_PUSH_COMMITS_SHOWN = 5;
/** Characters of an issue's, pull request's or comment's body the embed shows. */
export const GITHUB_BODY_SHOWN = 500;
/** The embed colors: a push and anything else, opened, closed, merged. */
const COLOR = { neutral: 0x7289da, opened: 0x2cbe4e, closed: 0x000000, merged: 0x6f42c1, comment: 0xe68d60 } as const;

function str(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

function field(record: unknown, key: string): unknown {
  return isRecord(record) ? record[key] : undefined;
}

function cut(value: string, max: number): string {
  const chars = [...value];
  return chars.length <= max ? value : `${chars.slice(0, max - 1).join('')}…`;
}

/** The embed's author: the delivery's sender (login, avatar, profile). */
function senderAuthor(body: JsonRecord): Json | undefined {
  const login = str(field(body.sender, 'login'));
  if (login === '') return undefined;
  const author: Json = { name: login };
  const icon = str(field(body.sender, 'avatar_url'));
  const url = str(field(body.sender, 'html_url'));
  if (icon) author.icon_url = icon;
  if (url) author.url = url;
  return author;
}

function repoName(body: JsonRecord): string {
  return str(field(body.repository, 'full_name')) || str(field(body.repository, 'name'));
}

function embed(body: JsonRecord, title: string, url: string, color: number, description?: string): Json {
  const made: Json = { title: cut(title, EMBED_TITLE_LENGTH_MAX), color };
  if (url) made.url = url;
  if (description) made.description = cut(description, EMBED_DESCRIPTION_LENGTH_MAX);
  const author = senderAuthor(body);
  if (author) made.author = author;
  return made;
}

/** `push`: "[repo:branch] N new commits", a line per commit (short sha linked, first line, author). */
function pushEmbed(body: JsonRecord): Json | null {
  const commits = Array.isArray(body.commits) ? body.commits.filter(isRecord) : [];
  if (commits.length === 0) return null;
  const branch = str(body.ref).replace(/^refs\/heads\//, '');
  const lines = commits.slice(0, GITHUB_PUSH_COMMITS_SHOWN).map((commit) => {
    const sha = str(commit.id).slice(0, 7);
    const message = cut(str(commit.message).split('\n')[0] ?? '', 50);
    const who = str(field(commit.author, 'username')) || str(field(commit.author, 'name'));
    return `[\`${sha}\`](${str(commit.url)}) ${message}${who ? ` - ${who}` : ''}`;
  });
  const count = commits.length;
  const title = `[${repoName(body)}:${branch}] ${count} new commit${count === 1 ? '' : 's'}`;
  return embed(body, title, str(body.compare), COLOR.neutral, lines.join('\n'));
}

/** `issues` and `pull_request`: "[repo] Issue opened: #N title" (and closed, reopened; a merged pull request says so). */
function issueEmbed(body: JsonRecord, kind: 'Issue' | 'Pull request', item: unknown): Json | null {
  const action = str(body.action);
  if (!['opened', 'closed', 'reopened'].includes(action) || !isRecord(item)) return null;
  const merged = kind === 'Pull request' && action === 'closed' && item.merged === true;
  const verb = merged ? 'merged' : action;
  const title = `[${repoName(body)}] ${kind} ${verb}: #${str(item.number)} ${str(item.title)}`;
  const color = merged ? COLOR.merged : action === 'closed' ? COLOR.closed : COLOR.opened;
  const description = action === 'opened' ? cut(str(item.body), GITHUB_BODY_SHOWN) : undefined;
  return embed(body, title, str(item.html_url), color, description);
}

/** `issue_comment` (created): "[repo] New comment on issue #N: title", the comment's start. */
function commentEmbed(body: JsonRecord): Json | null {
  if (str(body.action) !== 'created' || !isRecord(body.issue) || !isRecord(body.comment)) return null;
  const on = isRecord(body.issue.pull_request) ? 'pull request' : 'issue';
  const title = `[${repoName(body)}] New comment on ${on} #${str(body.issue.number)}: ${str(body.issue.title)}`;
  return embed(body, title, str(body.comment.html_url), COLOR.comment, cut(str(body.comment.body), GITHUB_BODY_SHOWN));
}

/** `create` and `delete` of a branch or tag. */
function refEmbed(body: JsonRecord, created: boolean): Json {
  const type = str(body.ref_type) || 'ref';
  const what = created ? `New ${type} created` : `${type[0]?.toUpperCase() ?? ''}${type.slice(1)} deleted`;
  return embed(
    body,
    `[${repoName(body)}] ${what}: ${str(body.ref)}`,
    str(field(body.repository, 'html_url')),
    COLOR.neutral,
  );
}

/** `release` (published): "[repo] New release published: tag". */
function releaseEmbed(body: JsonRecord): Json | null {
  if (str(body.action) !== 'published' || !isRecord(body.release)) return null;
  const name = str(body.release.name) || str(body.release.tag_name);
  return embed(body, `[${repoName(body)}] New release published: ${name}`, str(body.release.html_url), COLOR.neutral);
}

/** `fork`: "[repo] Fork created: owner/fork". */
function forkEmbed(body: JsonRecord): Json {
  const fork = str(field(body.forkee, 'full_name'));
  return embed(body, `[${repoName(body)}] Fork created: ${fork}`, str(field(body.forkee, 'html_url')), COLOR.neutral);
}

/** `watch` (GitHub's star, action `started`): "[repo] New star added". */
function starEmbed(body: JsonRecord): Json | null {
  if (!['started', 'created'].includes(str(body.action))) return null;
  return embed(body, `[${repoName(body)}] New star added`, str(field(body.repository, 'html_url')), COLOR.neutral);
}

/** The events posted, and how each is read. */
const GITHUB_EVENTS: Readonly<Record<string, (body: JsonRecord) => Json | null>> = {
  push: pushEmbed,
  issues: (body) => issueEmbed(body, 'Issue', body.issue),
  pull_request: (body) => issueEmbed(body, 'Pull request', body.pull_request),
  issue_comment: commentEmbed,
  create: (body) => refEmbed(body, true),
  delete: (body) => refEmbed(body, false),
  release: releaseEmbed,
  fork: forkEmbed,
  watch: starEmbed,
  star: starEmbed,
};

/** The names of the events posted (docs/decisions.md lists them). */
export const GITHUB_EVENT_NAMES: readonly string[] = Object.keys(GITHUB_EVENTS);

/**
 * The execute body of a GitHub delivery (`{embeds: [one]}`), or null when the event is not one
 * posted, or its action is not (an issue labelled, a push of no commit), or the body is no object.
 */
export function githubExecuteBody(event: string, body: unknown): Json | null {
  const read = GITHUB_EVENTS[event];
  if (!read || !Object.hasOwn(GITHUB_EVENTS, event) || !isRecord(body)) return null;
  const made = read(body);
  return made ? { embeds: [made] } : null;
}
