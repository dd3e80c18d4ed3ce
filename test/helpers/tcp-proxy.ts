/**
 * A TCP proxy a test puts between slashd and PostgreSQL or Redis, to inject what networks and
 * servers do: refuse new connections (the port closed), cut the open ones (a reset), or stall
 * (nothing forwarded either way, nothing closed: a hung server or a black-holed network), and
 * recover. Bytes held back during a stall flow once it ends.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** Connections open through the proxy now. */
  readonly connections: number;
  /** New connections are refused (ECONNREFUSED); open ones go on. */
  refuse(): Promise<void>;
  /** Open connections are reset on both sides; new ones are still accepted. */
  cut(): void;
  /** Nothing is forwarded, on open connections nor on new ones (accepted, then silent); nothing closes. */
  stall(): void;
  /** Accepts and forwards again (after refuse or stall): what a stall held back flows. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket;
}

/** Forwards `from` to `to`, pausing while the proxy stalls or `to` is full. */
function forward(from: Socket, to: Socket, stalled: () => boolean): void {
  from.on('data', (chunk: Buffer) => {
    if (!to.write(chunk)) {
      from.pause();
      to.once('drain', () => {
        if (!stalled()) from.resume();
      });
    }
  });
  from.on('end', () => to.end());
  from.on('error', () => to.destroy());
  from.on('close', () => to.destroy());
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/** A proxy on a free loopback port to `target` (host and port). */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let stalled = false;
  let server = createServer();
  const onConnection = (client: Socket) => {
    const upstream = connect(target.port, target.host);
    const pair = { client, upstream };
    pairs.add(pair);
    if (stalled) {
      client.pause();
      upstream.pause();
    }
    forward(client, upstream, () => stalled);
    forward(upstream, client, () => stalled);
    client.on('close', () => pairs.delete(pair));
  };
  server.on('connection', onConnection);
  const port = await listen(server, 0);
  let listening = true;

  const cut = () => {
    for (const { client, upstream } of pairs) {
      client.resetAndDestroy();
      upstream.resetAndDestroy();
    }
    pairs.clear();
  };
  return {
    port,
    cut,
    get connections() {
      return pairs.size;
    },
    async refuse() {
      if (!listening) return;
      listening = false;
      // The port closes at once; the callback would wait for the open connections to end.
      server.close();
      await Promise.resolve();
    },
    stall() {
      stalled = true;
      for (const { client, upstream } of pairs) {
        client.pause();
        upstream.pause();
      }
    },
    async restore() {
      stalled = false;
      for (const { client, upstream } of pairs) {
        client.resume();
        upstream.resume();
      }
      if (!listening) {
        server = createServer();
        server.on('connection', onConnection);
        await listen(server, port);
        listening = true;
      }
    },
    async close() {
      cut();
      if (listening) await new Promise<void>((resolve) => server.close(() => resolve()));
      listening = false;
    },
  };
}
