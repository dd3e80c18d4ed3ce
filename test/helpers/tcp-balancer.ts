/**
 * A TCP load balancer a test puts in front of slashd nodes (the gateway URL the nodes announce):
 * each new connection goes to the first target that accepts it, so a killed node's clients land
 * on the next one, as behind an operator's balancer with health checks. `hold()` keeps new
 * connections waiting (accepted, nothing forwarded) until `release()`: a test decides what
 * happens before a client reconnects, by order rather than by timing.
 */
import { connect, createServer, type Socket } from 'node:net';

export interface TcpBalancer {
  readonly port: number;
  /** The ports to try, in order, for each new connection. */
  setTargets(ports: readonly number[]): void;
  /** The target port of each connection forwarded so far, in order. */
  readonly forwarded: readonly number[];
  hold(): void;
  /** Resolves once `count` connections are held (the clients' reconnections have arrived). */
  untilHeld(count: number): Promise<void>;
  release(): void;
  close(): Promise<void>;
}

export async function startTcpBalancer(): Promise<TcpBalancer> {
  let targets: readonly number[] = [];
  let held: Socket[] | null = null;
  const forwarded: number[] = [];
  const open = new Set<Socket>();
  const heldWaiters: { count: number; resolve: () => void }[] = [];
  const tellHeld = () => {
    for (const waiter of [...heldWaiters]) {
      if ((held?.length ?? 0) < waiter.count) continue;
      heldWaiters.splice(heldWaiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };

  const route = (client: Socket, index = 0): void => {
    const port = targets[index];
    if (port === undefined || client.destroyed) return void client.destroy();
    const upstream = connect({ host: '127.0.0.1', port });
    open.add(upstream);
    // Refused (the node is down): the next target.
    upstream.once('error', () => {
      open.delete(upstream);
      route(client, index + 1);
    });
    upstream.once('connect', () => {
      forwarded.push(port);
      upstream.removeAllListeners('error');
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => {
        open.delete(upstream);
        client.destroy();
      });
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
  };

  const server = createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    client.pause();
    if (held) {
      held.push(client);
      tellHeld();
    } else route(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    forwarded,
    setTargets(ports) {
      targets = [...ports];
    },
    hold() {
      held ??= [];
    },
    untilHeld(count) {
      return new Promise<void>((resolve) => {
        heldWaiters.push({ count, resolve });
        tellHeld();
      });
    },
    release() {
      const waiting = held ?? [];
      held = null;
      for (const client of waiting) route(client);
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
