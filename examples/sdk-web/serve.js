// Serves the sample web app on loopback: its pages, the built client library under /sdk/ (so the
// page's import map can name it `slashd/sdk`), its settings as /config.json, and /api/ passed on
// to slashd, so the page calls the API on its own origin as a backend-for-frontend would.
//
//   node examples/sdk-web/serve.js --slashd http://127.0.0.1:8080 --app <APPLICATION_ID> [--port 5173]
//
// Register http://127.0.0.1:<port>/callback.html as a redirect URI of a public client application.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { dirname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const SDK_DIR = join(HERE, '..', '..', 'dist', 'src', 'sdk');
const PAGES = {
  '/': 'index.html',
  '/index.html': 'index.html',
  '/callback.html': 'callback.html',
  '/app.js': 'app.js',
};
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
};
/** Largest request body passed on to slashd (bytes): token forms are small. */
const MAX_PROXY_BODY = 64 * 1024;
/** How long a request passed on to slashd may take (ms). */
const PROXY_TIMEOUT_MS = 30_000;

function typeOf(path) {
  const dot = path.lastIndexOf('.');
  return TYPES[path.slice(dot)] ?? 'application/octet-stream';
}

async function readBody(request) {
  const chunks = [];
  let size = 0;
  for await (const chunk of request) {
    size += chunk.length;
    if (size > MAX_PROXY_BODY) throw new Error('body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function passOn(request, response, slashdUrl) {
  const headers = {};
  for (const name of ['authorization', 'content-type', 'accept']) {
    if (request.headers[name]) headers[name] = request.headers[name];
  }
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await readBody(request);
  const answer = await fetch(new URL(request.url, slashdUrl), {
    method: request.method,
    headers,
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(PROXY_TIMEOUT_MS),
  });
  response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
  response.end(Buffer.from(await answer.arrayBuffer()));
}

async function serveFile(response, file) {
  const text = await readFile(file);
  response.writeHead(200, { 'content-type': typeOf(file), 'cache-control': 'no-store' });
  response.end(text);
}

/**
 * Starts the sample on 127.0.0.1. `config()` is read at each request of /config.json:
 * `{ slashdUrl, applicationId, scopes? }`.
 */
export async function startSampleServer({ port = 0, config }) {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://sample').pathname;
    const settings = config();
    const work = (async () => {
      if (path.startsWith('/api/')) return passOn(request, response, settings.slashdUrl);
      if (path === '/config.json') {
        const origin = `http://${request.headers.host}`;
        response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        return response.end(JSON.stringify({ ...settings, apiBaseUrl: `${origin}/api/v10` }));
      }
      if (PAGES[path]) return serveFile(response, join(HERE, PAGES[path]));
      if (path.startsWith('/sdk/')) {
        const file = normalize(join(SDK_DIR, path.slice('/sdk/'.length)));
        if (file.startsWith(SDK_DIR + sep) && (file.endsWith('.js') || file.endsWith('.js.map'))) {
          return serveFile(response, file);
        }
      }
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    })();
    work.catch(() => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end('Bad gateway');
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function flag(name) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const slashdUrl = flag('slashd') ?? 'http://127.0.0.1:8080';
  const applicationId = flag('app');
  if (!applicationId) {
    console.error('usage: node examples/sdk-web/serve.js --slashd URL --app APPLICATION_ID [--port N]');
    process.exit(2);
  }
  const sample = await startSampleServer({
    port: Number(flag('port') ?? 5173),
    config: () => ({ slashdUrl, applicationId }),
  });
  console.log(`sample web app on ${sample.url}/ (redirect URI ${sample.url}/callback.html)`);
}
