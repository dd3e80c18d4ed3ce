/**
 * The web console (docs/console.md): its built front end at `/console`, and the little the
 * console needs that v10 lacks, under `/console/api` with the user's token: the sandbox sign-in
 * list, a guild's members, and a live stream of a channel's message events (server-sent events,
 * read by the console with fetch so the token travels in the Authorization header).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleService } from './service.js';
import { requireUser, userOf } from '../../http/guards.js';
import type { StaticFile } from '../../http/static-files.js';

export interface ConsoleRoutesOptions {
  console: ConsoleService;
  /** The built front end by relative path; null when it was not built. */
  files: Map<string, StaticFile> | null;
}

/** A comment line sent this often keeps the stream's socket from being closed as idle. */
export const STREAM_KEEPALIVE_MS = 20_000;

/**
 * Scripts, styles and fetches from slashd itself only; nothing inline, no frames. Images also from
 * `data:` and `blob:` (previews of uploads); an embed's remote image shows as its link.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Hashed build outputs never change under their name; the page itself is checked every time. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>slashd console</title></head>
<body><h1>The console is not built</h1><p>Run <code>npm run build:console</code> (npm install does it).</p></body></html>
`;

function sendFile(reply: FastifyReply, file: StaticFile, cache: string, ifNoneMatch: string | undefined): FastifyReply {
  reply
    .header('content-security-policy', CONSOLE_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', cache)
    .header('etag', file.etag);
  if (ifNoneMatch === file.etag) return reply.code(304).send();
  return reply.type(file.type).send(file.body);
}

export async function consoleRoutes(app: FastifyInstance, { console, files }: ConsoleRoutesOptions): Promise<void> {
  const page = files?.get('index.html');
  const servePage = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!page)
      return reply.code(503).header('cache-control', REVALIDATE).type('text/html; charset=utf-8').send(NOT_BUILT);
    return sendFile(reply, page, REVALIDATE, request.headers['if-none-match']);
  };
  app.get('/console', servePage);
  app.get<{ Params: { '*': string } }>('/console/*', async (request, reply) => {
    const path = request.params['*'];
    const file = path.startsWith('api/') ? undefined : files?.get(path);
    if (file)
      return sendFile(
        reply,
        file,
        path.startsWith('assets/') ? IMMUTABLE : REVALIDATE,
        request.headers['if-none-match'],
      );
    // Anything else under /console is a screen of the console: the page routes it.
    if (path.startsWith('api/') || path.startsWith('assets/')) return reply.callNotFound();
    return servePage(request, reply);
  });

  app.get('/console/api/sandbox-users', async () => console.sandboxUsers());

  app.get<{ Params: { guildId: string } }>(
    '/console/api/guilds/:guildId/members',
    { onRequest: requireUser },
    async (request) => console.members(userOf(request), request.params.guildId),
  );

  app.get<{ Params: { guildId: string } }>(
    '/console/api/guilds/:guildId/channels',
    { onRequest: requireUser },
    async (request) => console.channels(userOf(request), request.params.guildId),
  );

  app.get<{ Params: { channelId: string } }>(
    '/console/api/channels/:channelId/events',
    { onRequest: requireUser },
    async (request, reply) => {
      const raw = reply.raw;
      // Until its head is written, the stream sends nothing and an end waits for it.
      let started = false;
      let endAsked = false;
      const stream = await console.openStream(userOf(request), request.params.channelId, {
        send: (event) => {
          if (started && !raw.writableEnded) raw.write(`event: message\ndata: ${JSON.stringify(event)}\n\n`);
        },
        end: () => {
          if (started) raw.end();
          else endAsked = true;
        },
      });
      reply.hijack();
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'x-request-id': request.id,
        // A stream ends only when the server closes: its connection goes with it, not back to idle.
        connection: 'close',
      });
      raw.write(': open\n\n');
      started = true;
      const keepalive = setInterval(() => raw.write(': keepalive\n\n'), STREAM_KEEPALIVE_MS);
      const end = () => {
        clearInterval(keepalive);
        stream.close();
      };
      raw.on('close', end);
      request.raw.on('close', end);
      if (endAsked) raw.end();
    },
  );
}
