/** `slashd serve` when its address cannot be had: one line for the operator, whatever is open. */

/** Node's errors at `listen`, in words. */
const LISTEN_REASONS: ReadonlyMap<string, string> = new Map([
  ['EADDRINUSE', 'the address is already in use'],
  ['EACCES', 'permission denied'],
  ['EADDRNOTAVAIL', 'the address is not available on this machine'],
]);

/** The address and why it could not be listened on: `cannot listen on 127.0.0.1:3210: the address ...`. */
export function listenFailureMessage(host: string, port: number, error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const known = typeof code === 'string' ? LISTEN_REASONS.get(code) : undefined;
  const reason = known ? `${known} (${String(code)})` : error instanceof Error ? error.message : String(error);
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return `cannot listen on ${shownHost}:${port}: ${reason}`;
}
