/**
 * The bounds of message attachments, one constant each (v10's numbers; docs/decisions.md#attachments).
 * A file or a request past its bound is refused with v10's 40005 "Request entity too large".
 */
import { ATTACHMENT_SIZE_LIMIT, MESSAGE_ATTACHMENTS_MAX } from '../../messages/rules/limits.js';

/** Most attachments on one message, kept ones and new uploads together. */
export const ATTACHMENTS_PER_MESSAGE_MAX = MESSAGE_ATTACHMENTS_MAX;
/** Most bytes of one uploaded file: v10's default upload limit, the `attachment_size_limit` interactions carry. */
export const ATTACHMENT_FILE_BYTES_MAX = ATTACHMENT_SIZE_LIMIT;
/** Most bytes of all files of one request together: v10 bounds the request by the same default limit. */
export const UPLOAD_FILES_BYTES_MAX = ATTACHMENT_SIZE_LIMIT;
/** Most bytes of a multipart request's non-file fields (`payload_json`): a message body's own limit. */
export const UPLOAD_FIELDS_BYTES_MAX = 256 * 1024;
/** Most parts of one multipart request: ten files, `payload_json`, and a few fields a library adds. */
export const UPLOAD_PARTS_MAX = ATTACHMENTS_PER_MESSAGE_MAX + 10;
/** The whole multipart body: the files, the fields, and room for the parts' headers and boundaries. */
export const UPLOAD_REQUEST_BYTES_MAX = UPLOAD_FILES_BYTES_MAX + UPLOAD_FIELDS_BYTES_MAX + 64 * 1024;
/** Most characters of an attachment's filename (v10's `MessageAttachmentRequest.filename`). */
export const ATTACHMENT_FILENAME_LENGTH_MAX = 1024;
/**
 * Most characters of a stored filename once URL-encoded: its URL's last segment stays within the
 * router's bound on a path parameter (1000, `maxParamLength` in src/http/server.ts), so every URL is servable.
 */
export const ATTACHMENT_FILENAME_URL_LENGTH_MAX = 900;
/** Most characters of a file part's Content-Type kept as the file's type (RFC 6838: 127 each for type and subtype). */
export const CONTENT_TYPE_LENGTH_MAX = 255;
/** Most characters of an attachment's description (alt text). */
export const ATTACHMENT_DESCRIPTION_LENGTH_MAX = 1024;
/** Bytes of one stored piece of a file: uploads are written and served piece by piece, never whole. */
export const ATTACHMENT_CHUNK_BYTES = 256 * 1024;
/**
 * Most bytes of uploads one node holds in temporary files at once: twenty requests at v10's
 * largest. A request that would pass it is refused before its body is read (503, sent again later).
 */
export const UPLOAD_TEMP_BYTES_MAX = 20 * UPLOAD_FILES_BYTES_MAX;
/**
 * Least an upload's body must grow by each progress window, per second of it: a client that sends
 * less (or stalls) is cut off with 408 instead of holding a temporary file and a socket.
 */
export const UPLOAD_MIN_BYTES_PER_SECOND = 16 * 1024;
/** Bytes of the start of a file read for its image dimensions (a JPEG's frame header can sit past its metadata). */
export const IMAGE_HEADER_BYTES = 64 * 1024;
/**
 * Most bytes of attachments one application may have stored at once: what the world holds stays
 * bounded however long a test run lasts. Past it an upload is refused like an oversize one (40005).
 */
export const APPLICATION_ATTACHMENT_BYTES_MAX = 1024 * 1024 * 1024;
