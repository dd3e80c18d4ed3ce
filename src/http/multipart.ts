/**
 * Message bodies with files (`multipart/form-data`: `payload_json` and `files[n]`), read with
 * @fastify/multipart on the routes that declare `config: UPLOADS`; every other route answers a
 * multipart body with v10's invalid-content-type error, as before. Each file is streamed to a
 * temporary file as it arrives (its first bytes kept for the image header), so no upload is held in
 * memory; past v10's bounds (per file, per request, ten files) the request is refused with 40005 or
 * a 50035 tree, and the rest of its body is left to the keep-alive hook (drained, or the
 * connection closed). The temporary files go when the handler is done.
 */
import { closeSync, createWriteStream, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fastifyMultipart, { type Multipart } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ATTACHMENT_CHUNK_BYTES,
  ATTACHMENT_FILE_BYTES_MAX,
  ATTACHMENTS_PER_MESSAGE_MAX,
  IMAGE_HEADER_BYTES,
  UPLOAD_FIELDS_BYTES_MAX,
  UPLOAD_FILES_BYTES_MAX,
  UPLOAD_PARTS_MAX,
  UPLOAD_REQUEST_BYTES_MAX,
} from '../resources/attachments/rules/limits.js';
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

/** Lets the routes of `api` that declare `UPLOADS` read multipart bodies; the others refuse them. */
export async function acceptUploads(api: FastifyInstance): Promise<void> {
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

/** A stored temporary file's bytes, read synchronously in ATTACHMENT_CHUNK_BYTES pieces. */
function* piecesOf(path: string): Iterable<Uint8Array> {
  const fd = openSync(path, 'r');
  try {
    for (;;) {
      const piece = Buffer.allocUnsafe(ATTACHMENT_CHUNK_BYTES);
      const read = readSync(fd, piece, 0, ATTACHMENT_CHUNK_BYTES, null);
      if (read === 0) return;
      yield piece.subarray(0, read);
    }
  } finally {
    closeSync(fd);
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

/**
 * The message body of a request: its JSON as it is, or its multipart form read to its end, with
 * the files on disk. `work` runs with it; the files are removed when it settles.
 */
export async function withMessageBody<T>(
  request: FastifyRequest,
  work: (body: MessageBody) => Promise<T>,
  /** What refuses the request before its files are read (an unknown interaction token): no upload is read for nothing. */
  precheck?: () => Promise<unknown>,
): Promise<T> {
  if (!request.isMultipart()) {
    return work({ payload: request.body, files: [] });
  }
  const declared = Number(request.headers['content-length'] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > UPLOAD_REQUEST_BYTES_MAX) throw apiError('UploadTooLarge');
  await precheck?.();
  const folder = mkdtempSync(join(tmpdir(), 'slashd-upload-'));
  try {
    const body = await readForm(request, folder);
    return await work(body);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function readForm(request: FastifyRequest, folder: string): Promise<MessageBody> {
  const files: IncomingFile[] = [];
  const fields = nullRecordFrom(new Map<string, string>());
  let payload: unknown;
  let fileBytes = 0;
  const keepIds = request.routeOptions.config.keepIds === true;
  const seen = new Set<number>();
  try {
    const parts = request.parts({
      limits: {
        fileSize: ATTACHMENT_FILE_BYTES_MAX,
        files: ATTACHMENTS_PER_MESSAGE_MAX,
        fieldSize: UPLOAD_FIELDS_BYTES_MAX,
        parts: UPLOAD_PARTS_MAX,
      },
    });
    for await (const part of parts as AsyncIterable<Multipart>) {
      if (part.type === 'field') {
        if (part.fieldname === 'payload_json') payload = readPayload(part.value, keepIds);
        else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      const index = fileIndex(part.fieldname, files.length);
      if (seen.has(index)) {
        part.file.resume();
        throw invalidFormBody([issue([part.fieldname], ATTACHMENT_FILE_INVALID, 'A file index may be given once.')]);
      }
      seen.add(index);
      const target = join(folder, String(files.length));
      const meter = new FileMeter(UPLOAD_FILES_BYTES_MAX - fileBytes);
      await pipeline(part.file, meter, createWriteStream(target));
      fileBytes += meter.size;
      const head = meter.head;
      files.push({
        index,
        filename: part.filename,
        content_type: part.mimetype || null,
        size: meter.size,
        head,
        chunks: () => piecesOf(target),
      });
    }
  } catch (error) {
    throw uploadError(error);
  }
  return { payload: payload ?? fields, files };
}
