/**
 * The resume buffer shared by the nodes of a deployment: a capped Redis list per session, so that
 * a bot resumes on any node, bounded like the in-memory one (events and characters). Only the node holding the session appends (checked in the append
 * script against the session registry), and the list lives as long as the session's keys: while
 * attached, refreshed; once detached, the resume window. It is deleted with the session
 * (`SessionRegistry.end`), so `drop` has nothing to do.
 */
import type { Redis } from 'ioredis';
import { RESUME_BUFFER_CHARS, RESUME_BUFFER_EVENTS } from '../core/gateway/protocol.js';
import type { BufferedDispatch, ResumeBuffer, SettledInteraction } from './resume-buffer.js';
import type { SessionKeys } from './session-registry.js';

/**
 * KEYS: session, buffer. ARGV: node, seq, entry, capacity, maxChars. The buffer takes the session's
 * TTL. Like the in-memory buffer, it keeps at most `capacity` entries and `maxChars` characters of
 * JSON (the newest entry always): the session's `chars` field is the running count. Characters are
 * counted as JavaScript does (UTF-16 code units) from the entry's UTF-8 bytes, so both buffers agree.
 */
const APPEND = `
if redis.call('HGET', KEYS[1], 'node') ~= ARGV[1] then return 0 end
local function chars(entry)
  local json = string.sub(entry, (string.find(entry, ' ', (string.find(entry, ' ', 1, true)) + 1, true)) + 1)
  local _, continuations = string.gsub(json, '[\\128-\\191]', '')
  local _, astral = string.gsub(json, '[\\240-\\247]', '')
  return #json - continuations + astral
end
local length = redis.call('RPUSH', KEYS[2], ARGV[3])
local kept
if length == 1 then
  kept = chars(ARGV[3])
  redis.call('HSET', KEYS[1], 'chars', kept)
else
  kept = redis.call('HINCRBY', KEYS[1], 'chars', chars(ARGV[3]))
end
local capacity = tonumber(ARGV[4])
local maxChars = tonumber(ARGV[5])
while length > 1 and (length > capacity or kept > maxChars) do
  kept = kept - chars(redis.call('LPOP', KEYS[2]))
  length = length - 1
end
redis.call('HSET', KEYS[1], 'seq', ARGV[2], 'chars', kept)
if ARGV[#ARGV] ~= '' then redis.call('HSET', KEYS[1], 'pos', ARGV[#ARGV]) end
if redis.call('PTTL', KEYS[2]) < 0 then
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
end
return 1`;

/**
 * KEYS: session, buffer, the app's pending interactions, their deadlines. ARGV: as APPEND, then the
 * interaction's id and its member in the deadlines. The interaction stops being pending in the
 * same step as its dispatch is kept: a node that dies between the two cannot lose it.
 */
const APPEND_SETTLING = APPEND.replace(
  /return 1$/,
  `redis.call('HDEL', KEYS[3], 't:' .. ARGV[6], 'd:' .. ARGV[6])
redis.call('ZREM', KEYS[4], ARGV[7])
return 1`,
);

/** One entry: `s t json` (the sequence number and event name never hold a space). */
function entryOf(dispatch: BufferedDispatch): string {
  return `${dispatch.s} ${dispatch.t} ${dispatch.json}`;
}

function readEntry(entry: string): BufferedDispatch | null {
  const first = entry.indexOf(' ');
  const second = entry.indexOf(' ', first + 1);
  if (first < 0 || second < 0) return null;
  const s = Number(entry.slice(0, first));
  return Number.isInteger(s) ? { s, t: entry.slice(first + 1, second), json: entry.slice(second + 1) } : null;
}

/** The settling append script as a command of the connection. */
type AppendSettlingCommand = (
  session: string,
  buffer: string,
  pending: string,
  deadlines: string,
  node: string,
  seq: number,
  entry: string,
  capacity: number,
  maxChars: number,
  interactionId: string,
  member: string,
  logPos: string,
) => Promise<number>;

/** The append script as a command of the connection (sent by its SHA once loaded). */
type AppendCommand = (
  session: string,
  buffer: string,
  node: string,
  seq: number,
  entry: string,
  capacity: number,
  maxChars: number,
  logPos: string,
) => Promise<number>;

export class RedisResumeBuffer implements ResumeBuffer {
  private readonly appendScript: AppendCommand;
  private readonly appendSettlingScript: AppendSettlingCommand;

  /** Appends Redis refused (unreachable): a resume past them starts a new session. */
  failedAppends = 0;

  constructor(
    private readonly redis: Redis,
    private readonly keys: SessionKeys,
    /** This node's name in the session registry. */
    private readonly node: string,
    private readonly capacity = RESUME_BUFFER_EVENTS,
    /** The most JSON text kept per session (the newest dispatch always is): the gateway's `resumeBufferChars`. */
    private readonly maxChars = RESUME_BUFFER_CHARS,
  ) {
    redis.defineCommand('slashdResumeAppend', { numberOfKeys: 2, lua: APPEND });
    const commands = redis as unknown as { slashdResumeAppend: AppendCommand };
    this.appendScript = commands.slashdResumeAppend.bind(redis);
    redis.defineCommand('slashdResumeAppendSettling', { numberOfKeys: 4, lua: APPEND_SETTLING });
    const settling = redis as unknown as { slashdResumeAppendSettling: AppendSettlingCommand };
    this.appendSettlingScript = settling.slashdResumeAppendSettling.bind(redis);
  }

  append(sessionId: string, dispatch: BufferedDispatch, settles?: SettledInteraction, logPos?: string | null): void {
    // Not awaited: one connection keeps the appends of a session in order, and a read that follows
    // (`since`) is answered after them.
    const session = this.keys.session(sessionId);
    const buffer = this.keys.buffer(sessionId);
    const entry = entryOf(dispatch);
    const appended = settles
      ? this.appendSettlingScript(
          session,
          buffer,
          this.keys.pending(settles.applicationId),
          this.keys.pendingDeadlines(),
          this.node,
          dispatch.s,
          entry,
          this.capacity,
          this.maxChars,
          settles.interactionId,
          `${settles.applicationId} ${settles.interactionId}`,
          logPos ?? '',
        )
      : this.appendScript(session, buffer, this.node, dispatch.s, entry, this.capacity, this.maxChars, logPos ?? '');
    appended.catch(() => {
      this.failedAppends++;
    });
  }

  async since(sessionId: string, seq: number): Promise<readonly BufferedDispatch[] | null> {
    const entries = await this.redis.lrange(this.keys.buffer(sessionId), 0, -1);
    const kept = entries.map(readEntry).filter((d): d is BufferedDispatch => d !== null);
    const first = kept[0];
    if (!first) return seq >= 0 ? [] : null;
    if (seq < first.s - 1) return null;
    const missed = kept.filter((dispatch) => dispatch.s > seq);
    // An append Redis refused left a hole: what the client missed is not all here.
    if (missed.some((dispatch, i) => dispatch.s !== seq + 1 + i)) return null;
    return missed;
  }

  drop(): void {}
}
