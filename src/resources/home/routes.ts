/**
 * What a person or a probe finds at the root: `/` (a short page naming slashd and where to go
 * next), `/healthz` (the process answers) and `/readyz` (the store answers too, and Redis when
 * the node runs with it: a node that cannot reach what it needs leaves the load balancer).
 */
import type { ReadinessChecks } from '../../http/probes.js';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** What `/readyz` asks: each check resolves when its dependency answers, rejects when it cannot. */

export interface HomeRoutesOptions {
  ready: ReadinessChecks;
}

/** A readiness check unanswered within this counts as failed: a stalled dependency makes a 503, never a hung probe (ms). */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;

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

/** Whether `check` answers within the bound; why it did not goes to the log, not into the answer. */
async function answers(check: () => Promise<void>, onFailure: (error: unknown) => void): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${READINESS_CHECK_TIMEOUT_MS} ms`)),
      READINESS_CHECK_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([check(), late]);
    return true;
  } catch (error) {
    onFailure(error);
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export async function homeRoutes(app: FastifyInstance, { ready }: HomeRoutesOptions): Promise<void> {
  const page = homePage();
  const checks = Object.entries(ready).filter(
    (entry): entry is [string, () => Promise<void>] => typeof entry[1] === 'function',
  );
  app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(page));
  app.get('/healthz', async (_request, reply) => sendJson(reply, 200, { status: 'ok' }));
  app.get('/readyz', async (request, reply) => {
    const results = await Promise.all(
      checks.map(async ([name, check]) => {
        const ok = await answers(check, (error) =>
          request.log.warn({ err: error, dependency: name }, `readiness check: ${name} did not answer`),
        );
        return [name, ok ? 'ok' : 'unreachable'] as const;
      }),
    );
    const ok = results.every(([, state]) => state === 'ok');
    return sendJson(reply, ok ? 200 : 503, { status: ok ? 'ok' : 'unavailable', ...Object.fromEntries(results) });
  });
}
