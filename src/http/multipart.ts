/**
 * Message bodies with files (`multipart/form-data`: `payload_json` and `files[n]`), read with
 * @fastify/multipart on the routes that declare `config: UPLOADS`; every other route answers a
 * multipart body with v10's invalid-content-type error, as before. Each file is streamed to a
 * temporary file as it arrives (its first bytes kept for the image header), so no upload is held in
 * memory; past v10's bounds (per file, per request, ten files) the request is refused with 40005 or
 * a 50035 tree, and the rest of its body is left to the keep-alive hook (drained, or the
 * connection closed). Who may send is checked before any part is read (`checkBeforeUpload`); a
 * node holds at most UPLOAD_TEMP_BYTES_MAX in temporary files; a body is bound by its progress,
 * not by one total deadline; and however the request ends its temporary files go, their
 * descriptors closed.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fastifyMultipart, { type Multipart } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ATTACHMENT_CHUNK_BYTES,
  ATTACHMENT_FILE_BYTES_MAX,
  ATTACHMENTS_PER_MESSAGE_MAX,
  IMAGE_HEADER_BYTES,
  UPLOAD_FIELDS_BYTES_MAX,
  UPLOAD_FILES_BYTES_MAX,
  UPLOAD_PARTS_MAX,
  UPLOAD_MIN_BYTES_PER_SECOND,
  UPLOAD_REQUEST_BYTES_MAX,
  UPLOAD_TEMP_BYTES_MAX,
} from '../resources/attachments/rules/limits.js';
import type { HttpTimeouts } from './limits.js';
import { ATTACHMENT_FILE_INVALID } from '../core/io/codes.js';
import { ApiError, apiError, invalidFormBody } from '../core/io/errors.js';
import { issue } from '../core/io/issue.js';
import { reportTooLong } from '../core/io/report.js';
import { readJsonText } from '../core/io/json-text.js';
import { quoteUnsafeIntegers } from '../core/io/json-integers.js';
import { nullRecordFrom } from '../core/records.js';
import type { IncomingFile } from '../resources/attachments/service.js';
import { invalidContentType } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes message bodies with files (`readMessageBody`). */
    uploads?: boolean;
    /** `payload_json` integers past 2^53 are read as their exact decimal strings (as `parseJsonBodyKeepingIds`). */
    keepIds?: boolean;
  }
}

/** The route option of every route that takes files. */
export const UPLOADS = { config: { uploads: true } } as const;

/** `UPLOADS` on routes whose JSON bodies keep big integer snowflakes exact (the channel message routes). */
export const UPLOADS_KEEPING_IDS = { config: { uploads: true, keepIds: true } } as const;

/** A message body: its JSON, and the files sent with it (none for a JSON request). */
export interface MessageBody {
  readonly payload: unknown;
  readonly files: readonly IncomingFile[];
}

/** Seconds a client is told to wait when the node's temporary disk for uploads is full. */
const UPLOAD_SPACE_RETRY_AFTER_S = 1;

/** Lets the routes of `api` that declare `UPLOADS` read multipart bodies, in `space`; the others refuse them. */
export async function acceptUploads(api: FastifyInstance, space: UploadSpace): Promise<void> {
  api.decorate('slashdUploads', space);
  await api.register(fastifyMultipart, { throwFileSizeLimit: true });
  api.addHook('preValidation', (request, _reply, done) => {
    if (request.isMultipart() && request.routeOptions.config.uploads !== true) return done(invalidContentType());
    done();
  });
}

/** A file part's index: the `n` of `files[n]`; any other name counts in the order the files came. */
function fileIndex(fieldname: string, position: number): number {
  const match = /^files\[(\d{1,6})\]$/.exec(fieldname);
  return match ? Number(match[1]) : position;
}

/** Counts a file's bytes and keeps its first ones, refusing it past its own bound and the request's. */
class FileMeter extends Transform {
  size = 0;
  private readonly headParts: Buffer[] = [];
  private headBytes = 0;

  constructor(private readonly requestBytesLeft: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > ATTACHMENT_FILE_BYTES_MAX || this.size > this.requestBytesLeft) {
      return done(apiError('UploadTooLarge'));
    }
    if (this.headBytes < IMAGE_HEADER_BYTES) {
      const part = chunk.subarray(0, IMAGE_HEADER_BYTES - this.headBytes);
      this.headParts.push(Buffer.from(part));
      this.headBytes += part.length;
    }
    done(null, chunk);
  }

  get head(): Buffer {
    return Buffer.concat(this.headParts);
  }
}

/**
 * A temporary file's bytes in ATTACHMENT_CHUNK_BYTES pieces, read asynchronously (other requests
 * run between pieces); refused once the upload's request has ended early (its deadline passed).
 */
async function* piecesOf(path: string, signal: AbortSignal): AsyncIterable<Uint8Array> {
  signal.throwIfAborted();
  const file = await open(path, 'r');
  try {
    for (;;) {
      const piece = Buffer.allocUnsafe(ATTACHMENT_CHUNK_BYTES);
      const { bytesRead } = await file.read(piece, 0, ATTACHMENT_CHUNK_BYTES, null);
      signal.throwIfAborted();
      if (bytesRead === 0) return;
      yield piece.subarray(0, bytesRead);
    }
  } finally {
    await file.close();
  }
}

/** Maps the library's limit errors onto v10's refusals. */
function uploadError(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return apiError('UploadTooLarge');
  if (code === 'FST_FILES_LIMIT') {
    const issues: Parameters<typeof invalidFormBody>[0][number][] = [];
    reportTooLong(issues, ['attachments'], ATTACHMENTS_PER_MESSAGE_MAX);
    return invalidFormBody(issues);
  }
  if (code === 'FST_INVALID_JSON_FIELD_ERROR') return apiError('InvalidJson');
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return apiError('UploadTooLarge');
  if (code === 'FST_PROTO_VIOLATION') return invalidContentType();
  // busboy's own complaints (a malformed body, a missing boundary) are a bad request, never a 500.
  if (error instanceof Error && !(error as { statusCode?: number }).statusCode) return apiError('BadRequest');
  return error;
}

/** `payload_json` (text, or already parsed by the library for an application/json part) read with the project's JSON reader. */
function readPayload(value: unknown, keepIds: boolean): unknown {
  if (typeof value !== 'string') return value;
  let read;
  try {
    read = readJsonText(keepIds ? quoteUnsafeIntegers(value) : value);
  } catch {
    throw apiError('InvalidJson');
  }
  if (!read.ok) throw invalidFormBody(read.issues);
  return read.value;
}

/** What an upload's caller may do, decided before any of its body is read. */
export interface UploadAccess {
  /** Whether the caller may attach files (ATTACH_FILES where it applies): a file part is refused at once otherwise. */
  readonly mayAttach: boolean;
}

/** The access of each request whose upload route checked it (`checkBeforeUpload`). */
const accessOf = new WeakMap<FastifyRequest, UploadAccess>();

/**
 * A preHandler of an upload route: `check` throws the refusal (an unseen channel, a missing
 * permission, an unknown token) before any part is read, so nothing is written for a caller who
 * may not send. The body left unread is the keep-alive hook's: a small one drained, a larger
 * one's answer sent at once with `Connection: close`.
 */
export function checkBeforeUpload<R extends FastifyRequest = FastifyRequest>(
  check: (request: R) => Promise<UploadAccess | undefined | void>,
): (request: R) => Promise<void> {
  return async (request) => {
    if (!request.isMultipart()) return;
    accessOf.set(request, (await check(request)) ?? { mayAttach: true });
  };
}

/** The temporary disk one node's uploads hold, and the timeouts they keep. */
export class UploadSpace {
  private held = 0;

  constructor(
    readonly timeouts: Pick<HttpTimeouts, 'handlerTimeoutMs' | 'uploadProgressWindowMs'>,
    private readonly limit = UPLOAD_TEMP_BYTES_MAX,
  ) {}

  /** Takes `bytes` of the node's temporary disk, or false when that would pass its bound. */
  take(bytes: number): boolean {
    if (this.held + bytes > this.limit) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held -= bytes;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The node's upload space (`acceptUploads`). */
    slashdUploads?: UploadSpace;
  }
}

/**
 * What ends an upload's reading early, as the signal's reason: the client gone, a body that grows
 * by less than UPLOAD_MIN_BYTES_PER_SECOND in a progress window (408), or the request's deadline.
 */
class UploadWatch {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private received = 0;
  private checked = 0;
  private readonly onData = (chunk: Buffer) => {
    this.received += chunk.length;
  };
  private readonly onClose = () => {
    if (!this.reply.raw.writableFinished) this.abort(apiError('ServiceUnavailable'));
  };
  /** The request's deadline passed (./deadlines.ts answers the 503): reading the body stops. */
  private readonly onDeadline = () => this.abort(apiError('ServiceUnavailable'));

  constructor(
    private readonly request: FastifyRequest,
    private readonly reply: FastifyReply,
    windowMs: number,
  ) {
    const least = (UPLOAD_MIN_BYTES_PER_SECOND * windowMs) / 1000;
    this.timer = setInterval(() => {
      if (this.received - this.checked < least) {
        this.reply.header('connection', 'close');
        this.abort(apiError('RequestTimeout'));
      }
      this.checked = this.received;
    }, windowMs);
    this.timer.unref();
    reply.raw.once('close', this.onClose);
    if (request.deadline) request.deadline.onExpire = this.onDeadline;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Counts the body's bytes from now on: only once the form's reader consumes it (a listener earlier would start the flow). */
  count(): void {
    this.request.raw.on('data', this.onData);
  }

  /** The body was read to its end: its progress no longer counts. */
  bodyRead(): void {
    clearInterval(this.timer);
    this.request.raw.off('data', this.onData);
  }

  abort(reason: unknown): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }

  /** Rejects with the reason once aborted: what `promise` does then no longer matters. */
  race<T>(promise: Promise<T>): Promise<T> {
    const signal = this.controller.signal;
    let onAbort = () => {};
    const aborted = new Promise<never>((_resolve, reject) => {
      onAbort = () => reject(signal.reason as Error);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    return Promise.race([promise, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
  }

  end(): void {
    this.bodyRead();
    this.reply.raw.off('close', this.onClose);
    if (this.request.deadline) this.request.deadline.onExpire = null;
  }
}

/**
 * The message body of a request: its JSON as it is, or its multipart form read to its end, with
 * the files on disk. `work` runs with it; however the request ends (an answer, a refusal, a
 * deadline, the client gone), the temporary files are removed and their descriptors closed, and
 * once an early answer was given `work` does not start or store files.
 */
export async function withMessageBody<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  work: (body: MessageBody) => Promise<T>,
): Promise<T> {
  if (!request.isMultipart()) {
    return work({ payload: request.body, files: [] });
  }
  const declared = Number(request.headers['content-length'] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > UPLOAD_REQUEST_BYTES_MAX) throw apiError('UploadTooLarge');
  const space = request.server.slashdUploads;
  if (!space) throw new Error('acceptUploads was not registered for this route');
  const held = Math.min(Number.isFinite(declared) ? declared : UPLOAD_FILES_BYTES_MAX, UPLOAD_FILES_BYTES_MAX);
  if (!space.take(held)) {
    reply.header('connection', 'close').header('retry-after', String(UPLOAD_SPACE_RETRY_AFTER_S));
    throw apiError('ServiceUnavailable');
  }
  const watch = new UploadWatch(request, reply, space.timeouts.uploadProgressWindowMs);
  let folder: string | undefined;
  try {
    folder = await mkdtemp(join(tmpdir(), 'slashd-upload-'));
    const body = await readForm(request, folder, watch, accessOf.get(request) ?? { mayAttach: true });
    watch.bodyRead();
    // An answer already given (the client gone meanwhile) leaves nothing to do.
    watch.signal.throwIfAborted();
    const deadline = setTimeout(
      () => watch.abort(apiError('ServiceUnavailable')),
      space.timeouts.handlerTimeoutMs,
    ).unref();
    try {
      return await watch.race(work(body));
    } finally {
      clearTimeout(deadline);
    }
  } finally {
    watch.end();
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
    space.give(held);
  }
}

async function readForm(
  request: FastifyRequest,
  folder: string,
  watch: UploadWatch,
  access: UploadAccess,
): Promise<MessageBody> {
  const files: IncomingFile[] = [];
  const fields = nullRecordFrom(new Map<string, string>());
  let payload: unknown;
  let fileBytes = 0;
  const keepIds = request.routeOptions.config.keepIds === true;
  const seen = new Set<number>();
  const signal = watch.signal;
  try {
    const parts = request.parts({
      limits: {
        fileSize: ATTACHMENT_FILE_BYTES_MAX,
        files: ATTACHMENTS_PER_MESSAGE_MAX,
        fieldSize: UPLOAD_FIELDS_BYTES_MAX,
        parts: UPLOAD_PARTS_MAX,
      },
    });
    watch.count();
    const iterator = (parts as AsyncIterable<Multipart>)[Symbol.asyncIterator]();
    for (;;) {
      const next = await watch.race(iterator.next());
      if (next.done === true) break;
      const part = next.value;
      if (part.type === 'field') {
        if (part.fieldname === 'payload_json') payload = readPayload(part.value, keepIds);
        else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (!access.mayAttach) {
        part.file.resume();
        throw apiError('MissingPermissions');
      }
      const index = fileIndex(part.fieldname, files.length);
      if (seen.has(index)) {
        part.file.resume();
        throw invalidFormBody([issue([part.fieldname], ATTACHMENT_FILE_INVALID, 'A file index may be given once.')]);
      }
      seen.add(index);
      const target = join(folder, String(files.length));
      const meter = new FileMeter(UPLOAD_FILES_BYTES_MAX - fileBytes);
      // Aborting destroys every stream of the pipeline: the temporary file's descriptor closes with it.
      await pipeline(part.file, meter, createWriteStream(target), { signal });
      fileBytes += meter.size;
      const head = meter.head;
      files.push({
        index,
        filename: part.filename,
        content_type: part.mimetype || null,
        size: meter.size,
        head,
        chunks: () => piecesOf(target, signal),
      });
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw uploadError(error);
  }
  return { payload: payload ?? fields, files };
}
