/**
 * Threads for bots and users (v10 Threads): starting one in a channel or from a message, its
 * members (join, leave, add, remove, read, list), the guild's active threads and a channel's
 * archived ones. Editing a thread (archive, lock, rename) is `PATCH /channels/{id}`, in channel-edits.ts.
 * Who may do what is the services' (src/services/threads-service.ts and its neighbours).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidFormBody } from '../../core/io/errors.js';
import { auditLogReason } from '../bans/rules.js';
import { issue, type Issue } from '../../core/io/issue.js';
import { STRING_TYPE_CONVERT } from '../../core/io/codes.js';
import { readIntegerParam, type IntegerParam } from '../../core/world/page-query.js';
import type { ThreadListsService, ArchivedPage } from './lists-service.js';
import type { ThreadMembersService } from './members-service.js';
import type { ThreadsService } from './service.js';
import { requireAnyCaller, requireUserOrBot, viewerOf } from '../../http/guards.js';
import { readPage, type PagingQuery } from '../../http/paging.js';

export interface ThreadRoutesOptions {
  threads: ThreadsService;
  members: ThreadMembersService;
  lists: ThreadListsService;
}

interface ChannelParams {
  channelId: string;
}
interface MemberParams extends ChannelParams {
  userId: string;
}

/** A thread body is a handful of short fields. */
const THREAD_BODY_LIMIT_BYTES = 16 * 1024;
/** `GET …/thread-members`: `limit` 1-100, default 100 (v10). */
const THREAD_MEMBERS_LIMIT: IntegerParam = { name: 'limit', min: 1, max: 100, fallback: 100 };
/** The archived lists: `limit` 2-100 (v10's minimum is 2), default 50. */
const ARCHIVED_LIMIT: IntegerParam = { name: 'limit', min: 2, max: 100, fallback: 50 };
/** The longest `before` read (an ISO 8601 timestamp or a snowflake). */
const BEFORE_MAX_LENGTH = 40;

/** A bot or a user of the client; an OAuth2 bearer token reads no channel (v10: 401). */
const READER = { onRequest: requireAnyCaller, preHandler: [requireUserOrBot] };
const WRITER = { ...READER, bodyLimit: THREAD_BODY_LIMIT_BYTES };

type ArchivedQuery = Partial<Record<'before' | 'limit', unknown>>;

/** `before` (a timestamp, or a thread id where `snowflake`) and `limit` of an archived list. */
function archivedPage(query: ArchivedQuery | undefined, snowflake: boolean): ArchivedPage {
  const issues: Issue[] = [];
  const limit = readIntegerParam(query?.limit, ARCHIVED_LIMIT, issues);
  const raw = query?.before;
  let before: string | null = null;
  if (raw !== undefined && raw !== '') {
    const valid =
      typeof raw === 'string' &&
      raw.length <= BEFORE_MAX_LENGTH &&
      (snowflake ? /^\d{1,20}$/.test(raw) : !Number.isNaN(Date.parse(raw)));
    if (valid) before = raw;
    else issues.push(issue(['before'], STRING_TYPE_CONVERT, 'Could not interpret the value as a timestamp.'));
  }
  if (issues.length > 0) throw invalidFormBody(issues);
  return { before, limit };
}

/** The audit log reason of a write (`X-Audit-Log-Reason`). */
function reasonOf(request: FastifyRequest): string | null {
  return auditLogReason(request.headers['x-audit-log-reason']);
}

function params(request: FastifyRequest): MemberParams {
  return request.params as MemberParams;
}

export async function threadRoutes(
  api: FastifyInstance,
  { threads, members, lists }: ThreadRoutesOptions,
): Promise<void> {
  api.post<{ Params: ChannelParams }>('/channels/:channelId/threads', WRITER, async (request, reply) =>
    reply
      .code(201)
      .send(await threads.start(viewerOf(request), request.params.channelId, request.body, reasonOf(request))),
  );

  api.post<{ Params: ChannelParams & { messageId: string } }>(
    '/channels/:channelId/messages/:messageId/threads',
    WRITER,
    async (request, reply) => {
      const { channelId, messageId } = request.params;
      return reply
        .code(201)
        .send(await threads.startFromMessage(viewerOf(request), channelId, messageId, request.body, reasonOf(request)));
    },
  );

  api.put('/channels/:channelId/thread-members/@me', READER, async (request, reply) => {
    await members.join(viewerOf(request), params(request).channelId);
    return reply.code(204).send();
  });
  api.delete('/channels/:channelId/thread-members/@me', READER, async (request, reply) => {
    await members.leave(viewerOf(request), params(request).channelId);
    return reply.code(204).send();
  });
  api.put('/channels/:channelId/thread-members/:userId', READER, async (request, reply) => {
    await members.addOther(viewerOf(request), params(request).channelId, params(request).userId);
    return reply.code(204).send();
  });
  api.delete('/channels/:channelId/thread-members/:userId', READER, async (request, reply) => {
    await members.removeOther(viewerOf(request), params(request).channelId, params(request).userId);
    return reply.code(204).send();
  });
  api.get('/channels/:channelId/thread-members/:userId', READER, async (request) =>
    members.get(viewerOf(request), params(request).channelId, params(request).userId),
  );
  api.get<{ Params: ChannelParams; Querystring: PagingQuery }>(
    '/channels/:channelId/thread-members',
    READER,
    async (request) => {
      const page = readPage(request.query, THREAD_MEMBERS_LIMIT, ['after']);
      return members.list(viewerOf(request), request.params.channelId, page);
    },
  );

  api.get<{ Params: { guildId: string } }>('/guilds/:guildId/threads/active', READER, async (request) =>
    lists.active(viewerOf(request), request.params.guildId),
  );
  for (const kind of ['public', 'private'] as const) {
    api.get<{ Params: ChannelParams; Querystring: ArchivedQuery }>(
      `/channels/:channelId/threads/archived/${kind}`,
      READER,
      async (request) =>
        lists.archived(
          viewerOf(request),
          request.params.channelId,
          kind === 'private',
          archivedPage(request.query, false),
        ),
    );
  }
  api.get<{ Params: ChannelParams; Querystring: ArchivedQuery }>(
    '/channels/:channelId/users/@me/threads/archived/private',
    READER,
    async (request) =>
      lists.joinedPrivateArchived(viewerOf(request), request.params.channelId, archivedPage(request.query, true)),
  );
}
