#!/usr/bin/env node
// A complete HTTP-interactions app in one file, with nothing but node: it registers a /hello
// command on slashd, points its application's interactions endpoint here, checks every request's
// Ed25519 signature, and answers /hello. When it stops (Ctrl-C, SIGTERM) it clears the endpoint it
// set: while an app has an endpoint, slashd delivers its interactions there and never to a bot
// logged in on the gateway, so a gateway bot run next would get none. /hello stays registered.
// Run it next to `npm start`:
//
//   node examples/hello-app.js [--url http://127.0.0.1:3210] [--token BOT_TOKEN] [--port 3211]
//
// then, as a user: node bin/slashd.js invoke --as alice --channel general '/hello name:world'
import { createPublicKey, verify } from 'node:crypto';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { url: { type: 'string' }, token: { type: 'string' }, port: { type: 'string' } },
});
const slashd = (values.url ?? process.env.SLASHD_URL ?? 'http://127.0.0.1:3210').replace(/\/+$/, '');
const botToken = values.token ?? process.env.SLASHD_BOT_TOKEN ?? 'demo-bot-token-please-change';
const port = Number(values.port ?? process.env.PORT ?? 3211);
const api = `${slashd}/api/v10`;

const HELLO = {
  name: 'hello',
  description: 'Say hello',
  options: [{ type: 3, name: 'name', description: 'Whom to greet' }],
};

async function call(method, path, body) {
  const response = await fetch(`${api}${path}`, {
    method,
    headers: { authorization: `Bot ${botToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

// The application's public key, as a key object node can verify with.
function publicKey(hex) {
  return createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(hex, 'hex').toString('base64url') },
    format: 'jwk',
  });
}

function signedCorrectly(key, request, body) {
  const signature = request.headers['x-signature-ed25519'];
  const timestamp = request.headers['x-signature-timestamp'];
  if (typeof signature !== 'string' || typeof timestamp !== 'string' || !/^[0-9a-f]{128}$/i.test(signature))
    return false;
  return verify(null, Buffer.from(timestamp + body), key, Buffer.from(signature, 'hex'));
}

function answer(interaction) {
  if (interaction.type === 1) return { type: 1 }; // PING → PONG
  const user = interaction.member?.user ?? interaction.user;
  if (interaction.data?.name !== 'hello')
    return { type: 4, data: { content: `I do not know /${interaction.data?.name}.`, flags: 64 } };
  const name = interaction.data.options?.find((option) => option.name === 'name')?.value ?? user?.username ?? 'you';
  return {
    type: 4,
    data: {
      content: `Hello, ${name}!`,
      embeds: [
        {
          title: 'Answered by examples/hello-app.js',
          description: `${user?.username ?? 'Someone'} invoked /hello through slashd.`,
          fields: [{ name: 'channel', value: `<#${interaction.channel_id}>` }],
        },
      ],
    },
  };
}

const me = await call('GET', '/applications/@me').catch((error) => {
  console.error(
    `hello-app: cannot use slashd at ${slashd} (${error.cause?.message ?? error.message}); is it running? (npm start)`,
  );
  process.exit(1);
});
const key = publicKey(me.verify_key);

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    if (!signedCorrectly(key, request, body)) {
      response.writeHead(401).end('invalid request signature');
      return;
    }
    const reply = JSON.stringify(answer(JSON.parse(body)));
    response.writeHead(200, { 'content-type': 'application/json' }).end(reply);
  });
});
await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
const endpoint = `http://127.0.0.1:${server.address().port}/interactions`;

// POST creates the command, or overwrites the one of the same name: other commands stay.
await call('POST', `/applications/${me.id}/commands`, HELLO);
// slashd checks the endpoint (a signed PING, then a badly signed request) before storing it.
await call('PATCH', '/applications/@me', { interactions_endpoint_url: endpoint });
console.log(`hello-app ready: "${me.name}" answers /hello at ${endpoint}`);

// Clears the endpoint if it is still the one set here (someone may have set another since).
async function clearEndpoint() {
  const now = await call('GET', '/applications/@me');
  if (now.interactions_endpoint_url !== endpoint) return;
  await call('PATCH', '/applications/@me', { interactions_endpoint_url: null });
  console.log(`hello-app: cleared "${me.name}"'s interactions endpoint; a bot logged in with its token now gets them`);
}

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  server.close();
  clearEndpoint().then(
    () => process.exit(0),
    (error) => {
      console.error(`hello-app: could not clear the interactions endpoint (${error.message})`);
      process.exit(1);
    },
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
