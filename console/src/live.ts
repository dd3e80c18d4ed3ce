/**
 * The channel's live stream: server-sent events read with fetch, so the user's token travels in
 * the Authorization header (EventSource cannot send one). Each event names a message that
 * changed; the console then re-reads the channel through v10 as the user.
 */
import type { Api } from './api';

export interface LiveEvent {
  t: string;
  message_id: string;
}

/** Reconnects after a drop wait this long, doubling up to the most. */
const RETRY_FIRST_MS = 500;
const RETRY_MOST_MS = 10_000;

/** Follows the channel until the returned function is called. */
export function followChannel(
  api: Api,
  channelId: string,
  onEvent: (event: LiveEvent) => void,
  onOpen: () => void,
): () => void {
  const abort = new AbortController();
  let retry = RETRY_FIRST_MS;
  const run = async () => {
    while (!abort.signal.aborted) {
      try {
        const response = await api.consoleFetch(`/channels/${channelId}/events`, abort.signal);
        if (!response.ok || !response.body) throw new Error(`stream refused: ${response.status}`);
        retry = RETRY_FIRST_MS;
        onOpen();
        await readEvents(response.body, onEvent);
      } catch {
        if (abort.signal.aborted) return;
      }
      await new Promise((done) => setTimeout(done, retry));
      retry = Math.min(retry * 2, RETRY_MOST_MS);
    }
  };
  void run();
  return () => abort.abort();
}

async function readEvents(body: ReadableStream<Uint8Array>, onEvent: (event: LiveEvent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      if (data) onEvent(JSON.parse(data) as LiveEvent);
    }
  }
}
