/**
 * Pino's JSON lines, one per log record, turned into one short readable line for a terminal:
 * `12:00:01 INFO  request completed GET /api/v10/... 200 (3 ms)`. Machines get the JSON as it is.
 */

/** Pino's numeric levels and the names printed for them. */
export const LEVEL_NAMES: Readonly<Record<number, string>> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/** The widest level name, so that messages line up. */
const LEVEL_WIDTH = 5;

type LogRecord = Record<string, unknown>;

function field(record: LogRecord, key: string): LogRecord | undefined {
  const value = record[key];
  return typeof value === 'object' && value !== null ? (value as LogRecord) : undefined;
}

function clock(time: unknown): string {
  const date = typeof time === 'number' ? new Date(time) : new Date();
  return date.toISOString().slice(11, 19);
}

/** The request, response and error details pino attaches, in a few words. */
function details(record: LogRecord): string[] {
  // The request id ties a request's line to the lines of what it caused (a delivery).
  const parts: string[] = typeof record.reqId === 'string' ? [`[${record.reqId}]`] : [];
  const req = field(record, 'req');
  if (req) parts.push(`${String(req.method)} ${String(req.url)}`);
  const res = field(record, 'res');
  if (res && res.statusCode !== undefined) parts.push(String(res.statusCode));
  if (typeof record.responseTime === 'number') parts.push(`(${record.responseTime.toFixed(0)} ms)`);
  // A delivery's line: which interaction, how it went, and why it failed.
  if (typeof record.interactionId === 'string') parts.push(`interaction ${record.interactionId}`);
  if (typeof record.outcome === 'string') parts.push(record.outcome);
  if (typeof record.detail === 'string') parts.push(`(${record.detail})`);
  const err = field(record, 'err');
  if (err && typeof err.message === 'string') parts.push(`error: ${err.message}`);
  return parts;
}

/** One JSON log line as one readable line; a line that is not JSON passes through unchanged. */
export function formatLogLine(line: string): string {
  let record: LogRecord;
  try {
    record = JSON.parse(line) as LogRecord;
  } catch {
    return line.trimEnd();
  }
  const level = (LEVEL_NAMES[Number(record.level)] ?? String(record.level)).padEnd(LEVEL_WIDTH);
  const message = typeof record.msg === 'string' ? record.msg : '';
  return [clock(record.time), level, message, ...details(record)].filter((part) => part !== '').join(' ');
}

/** A destination stream for pino that writes readable lines. */
export function prettyLogStream(write: (text: string) => void): { write(chunk: string): void } {
  return {
    write(chunk: string) {
      for (const line of chunk.split('\n')) {
        if (line.trim() !== '') write(`${formatLogLine(line)}\n`);
      }
    },
  };
}
