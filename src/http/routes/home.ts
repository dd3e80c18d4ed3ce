/**
 * What a person or a probe finds at the root: `/` (a short page naming slashd and where to go
 * next), `/healthz` (the process answers) and `/readyz` (the store answers too).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';

export interface HomeRoutesOptions {
  /** Resolves when the store answers; rejects when it cannot serve. */
  ready: () => Promise<void>;
}

/** Where the documentation lives, relative to the repository (a later console will be linked here too). */
export const DOCS_LINKS: readonly { href: string; title: string }[] = [
  { href: 'README.md', title: 'README: start, serve, lint' },
  { href: 'docs/invoking.md', title: 'Acting as a user: invoking a command' },
  { href: 'docs/console.md', title: 'The web console' },
  { href: 'docs/architecture.md', title: 'Architecture' },
  { href: 'docs/errors.md', title: 'Error codes' },
];

/** Probes compare the content type exactly, without a charset. */
const JSON_TYPE = 'application/json';

/** Sent as bytes: Fastify appends a charset to JSON sent as text, and probes compare the type exactly. */
function sendJson(reply: FastifyReply, status: number, body: Record<string, unknown>): FastifyReply {
  return reply
    .code(status)
    .type(JSON_TYPE)
    .send(Buffer.from(JSON.stringify(body)));
}

export function homePage(): string {
  const links = DOCS_LINKS.map((link) => `<li><code>${link.href}</code>: ${link.title}</li>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>slashd</title></head>
<body>
<h1>slashd</h1>
<p>A self-hostable service for application commands that speaks the v10 wire format.</p>
<p>API base: <code>/api/v10</code> (also <code>/api/v9</code>); admin API: <code>/admin</code>;
health: <a href="/healthz">/healthz</a>, <a href="/readyz">/readyz</a>.</p>
<p>Web console (use commands as a user): <a href="/console">/console</a>.</p>
<p>Documentation, in the repository:</p>
<ul>
${links}
</ul>
</body>
</html>
`;
}

export async function homeRoutes(app: FastifyInstance, { ready }: HomeRoutesOptions): Promise<void> {
  const page = homePage();
  app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(page));
  app.get('/healthz', async (_request, reply) => sendJson(reply, 200, { status: 'ok' }));
  app.get('/readyz', async (request, reply) => {
    try {
      await ready();
    } catch (error) {
      // Why the store failed goes to the server's log, not into an unauthenticated answer.
      request.log.warn({ err: error }, 'readiness check: the store did not answer');
      return sendJson(reply, 503, { status: 'unavailable', store: 'unreachable' });
    }
    return sendJson(reply, 200, { status: 'ok', store: 'ok' });
  });
}
