/**
 * HTTP written by hand on one socket: for what a client library hides, such as whether two
 * answers come on one kept-alive connection or the server closes it after the first.
 */
import { connect, type NetConnectOpts } from 'node:net';

/** The head (status line and headers) of each answer received, in order. */
function headsIn(received: string): string[] {
  return received
    .split(/(?=HTTP\/1\.1 \d{3} )/)
    .filter((part) => part.includes('\r\n\r\n'))
    .map((part) => part.slice(0, part.indexOf('\r\n\r\n')));
}

/**
 * Sends `text` (one request or several, pipelined) on one connection and resolves with the heads
 * of the answers once `count` have come, or with those that came when the server closed it.
 */
export function answerHeads(to: NetConnectOpts, text: string, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(to, () => socket.write(text));
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (headsIn(received).length < count) return;
      socket.destroy();
      resolve(headsIn(received));
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(headsIn(received)));
  });
}
