/**
 * A world too large for one JSON body, sent as lines (`application/x-ndjson`, docs/world.md#a-world-in-lines):
 * each line is a JSON object holding some of the world's four lists, and the lines are read as
 * they arrive, one at a time, into one world value, as if the lists had stood in one file. The
 * body is never held whole: what is held is one line's text and the values read so far. Bounded
 * per line and in all. The route then handles the value as it would a JSON body: one change, in
 * one transaction, or nothing.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError, invalidFormBody, statusError, type ApiError } from '../../core/io/errors.js';
import { ISSUES_REPORTED_MAX, type Issue } from '../../core/io/issue.js';
import { readList, readRecord } from '../../core/io/read.js';
import { readJsonText } from '../../core/io/json-text.js';
import { WORLD_IMPORT_BODY_LIMIT_BYTES, WORLD_LINES_BODY_LIMIT_BYTES } from '../../http/limits.js';

/** The media type of a world in lines. */
export const WORLD_LINES_TYPE = 'application/x-ndjson';

/** The lists a line may hold: the world file's. */
const WORLD_LIST_KEYS = ['applications', 'users', 'guilds', 'oauth2_tokens'] as const;
type WorldListKey = (typeof WORLD_LIST_KEYS)[number];
type WorldLists = Record<WorldListKey, unknown[]>;

const NEWLINE = 0x0a;

/** Reads lines into one world value; `end` gives it, or the error the body is refused with. */
export class WorldLinesReader {
  private readonly lists: WorldLists = { applications: [], users: [], guilds: [], oauth2_tokens: [] };
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private totalBytes = 0;
  private lineIndex = 0;
  private readonly issues: Issue[] = [];
  private failure: ApiError | null = null;

  constructor(
    private readonly lineLimitBytes = WORLD_IMPORT_BODY_LIMIT_BYTES,
    private readonly totalLimitBytes = WORLD_LINES_BODY_LIMIT_BYTES,
  ) {}

  /** Takes the next piece of the body; false once the body is refused (the rest need not be read). */
  push(chunk: Buffer): boolean {
    if (this.failure) return false;
    this.totalBytes += chunk.length;
    if (this.totalBytes > this.totalLimitBytes) return this.refuse(apiError('TooLarge'));
    let start = 0;
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, start)) {
      this.hold(chunk.subarray(start, at));
      if (!this.takeLine()) return false;
      start = at + 1;
    }
    this.hold(chunk.subarray(start));
    return this.pendingBytes <= this.lineLimitBytes || this.refuse(apiError('TooLarge'));
  }

  /** The world value of every line, or the body's error. */
  end(): { value: WorldLists } | { error: ApiError } {
    if (!this.failure && this.pendingBytes > 0) this.takeLine();
    if (this.failure) return { error: this.failure };
    if (this.issues.length > 0) return { error: invalidFormBody(this.issues) };
    return { value: this.lists };
  }

  private hold(piece: Buffer): void {
    if (piece.length === 0) return;
    this.pending.push(piece);
    this.pendingBytes += piece.length;
  }

  private refuse(error: ApiError): false {
    this.failure = error;
    this.pending = [];
    return false;
  }

  /** Reads the held line; false when the body is refused for it. */
  private takeLine(): boolean {
    const index = this.lineIndex++;
    if (this.pendingBytes > this.lineLimitBytes) return this.refuse(apiError('TooLarge'));
    const text = Buffer.concat(this.pending, this.pendingBytes).toString('utf8');
    this.pending = [];
    this.pendingBytes = 0;
    if (text.trim() === '') return true;
    let read;
    try {
      read = readJsonText(text);
    } catch {
      return this.refuse(apiError('InvalidJson'));
    }
    if (!read.ok) {
      this.issues.push(...read.issues.map((found) => ({ ...found, path: [index, ...found.path] })));
      return this.withinIssues();
    }
    // Keys other than the four lists are passed over, as in a world file.
    const line = readRecord(read.value, [index], this.issues);
    for (const key of WORLD_LIST_KEYS) {
      if (line?.[key] === undefined) continue;
      const items = readList(line[key], [index, key], this.issues);
      for (const item of items ?? []) this.lists[key].push(item);
    }
    return this.withinIssues();
  }

  /**
   * Past as many issues as a 50035 reports, the body is refused with them and read no further:
   * neither the answer nor what is held grows with the lines of a body that fails anyway.
   */
  private withinIssues(): boolean {
    if (this.issues.length < ISSUES_REPORTED_MAX) return true;
    this.lists.applications = [];
    this.lists.users = [];
    this.lists.guilds = [];
    this.lists.oauth2_tokens = [];
    return this.refuse(invalidFormBody(this.issues));
  }
}

/**
 * Lets the routes of `plugin` take a world in lines: the body is read as a stream (Fastify's body
 * limit does not apply to it; the reader's own bounds do), and the route gets the world value.
 */
export function acceptWorldLines(plugin: FastifyInstance): void {
  plugin.addContentTypeParser(WORLD_LINES_TYPE, (_request: FastifyRequest, body, done) => {
    const reader = new WorldLinesReader();
    let settled = false;
    const settle = (error: ApiError | null, value?: unknown) => {
      if (settled) return;
      settled = true;
      done(error, value);
    };
    body.on('data', (chunk: Buffer) => {
      if (reader.push(chunk)) return;
      // Refused: answered now; the rest is drained unread, so the connection can carry the answer.
      const read = reader.end();
      if ('error' in read) settle(read.error);
    });
    body.on('end', () => {
      const read = reader.end();
      if ('error' in read) settle(read.error);
      else settle(null, read.value);
    });
    // The client went away mid-body: nobody reads the answer, but it is still not a fault of ours.
    body.on('error', () => settle(statusError(400, 'Bad Request')));
  });
}
