/**
 * Which files a message ends up with: the rules of a message body's `attachments` against the
 * files uploaded with it and, for an edit, the files the message has (docs/decisions.md#attachments).
 *
 * - `attachments[].id` names an upload by the `n` of its `files[n]` field, or a file the message
 *   has by its snowflake; `filename` and `description` override an upload's.
 * - A create (and an edit without `attachments`) also takes every upload it does not list; an edit
 *   with `attachments` keeps only the existing files it lists, and `null` drops them all.
 * - At most ATTACHMENTS_PER_MESSAGE_MAX files in all.
 */
import { ATTACHMENT_NOT_FOUND } from '../../../core/io/codes.js';
import type { IssuePath } from '../../../core/io/issue.js';
import { fieldOf, isAbsent, readList, readRecord, readString, type JsonRecord } from '../../../core/io/read.js';
import { report, reportTooLong, type Issues } from '../../../core/io/report.js';
import { fail, ok, type Result } from '../../../core/io/result.js';
import { checkLength } from '../../../core/validation/text.js';
import { cleanFilename, contentTypeOf } from './filename.js';
import { readImageInfo } from './image-size.js';
import {
  ATTACHMENT_DESCRIPTION_LENGTH_MAX,
  ATTACHMENT_FILENAME_LENGTH_MAX,
  ATTACHMENTS_PER_MESSAGE_MAX,
} from './limits.js';
import type { StoredAttachment, UploadedFile } from './model.js';

export interface AttachmentPlanInput {
  /** The body's `attachments` as sent: undefined when absent, null to clear (edits only). */
  readonly requested: unknown;
  readonly uploads: readonly UploadedFile[];
  /** The message's files before an edit; empty for a create. */
  readonly existing: readonly StoredAttachment[];
  /** Where the body's `attachments` sits (`['data', 'attachments']` in a callback). */
  readonly path: IssuePath;
  /** A fresh snowflake for each new file. */
  readonly newId: () => string;
}

export interface AttachmentPlan {
  /** The message's files, in order. */
  readonly attachments: StoredAttachment[];
  /** The new files to store: the upload of each, and the id it gets. */
  readonly added: { readonly upload: UploadedFile; readonly attachment: StoredAttachment }[];
  /** Ids of the message's files the edit drops. */
  readonly dropped: string[];
}

interface Override {
  readonly filename?: string;
  readonly description?: string;
}

/** The attachment an upload becomes: its cleaned name, its type and, for an image, its dimensions. */
export function attachmentOfUpload(upload: UploadedFile, id: string, override: Override = {}): StoredAttachment {
  const filename = cleanFilename(override.filename ?? upload.filename);
  const image = readImageInfo(upload.head);
  const contentType = image?.content_type ?? contentTypeOf(filename, upload.content_type);
  return {
    id,
    filename,
    size: upload.size,
    ...(contentType !== undefined ? { content_type: contentType } : {}),
    ...(override.description !== undefined ? { description: override.description } : {}),
    ...(image ? { width: image.width, height: image.height } : {}),
  };
}

/** An entry's id as text: v10 libraries send an upload's index as a number, a kept file's as a string. */
function entryId(raw: unknown): string | undefined {
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) return String(raw);
  if (typeof raw === 'string' && /^\d{1,20}$/.test(raw)) return raw;
  return undefined;
}

/** A text field of an entry within `max` characters, or undefined (absent, or reported). */
function readText(entry: JsonRecord, key: string, min: number, max: number, path: IssuePath, issues: Issues) {
  const raw = fieldOf(entry, key);
  if (isAbsent(raw)) return undefined;
  const before = issues.length;
  const text = readString(raw, [...path, key], issues);
  if (text !== undefined) checkLength(text, min, max, [...path, key], issues);
  return issues.length === before ? text : undefined;
}

function readOverride(entry: JsonRecord, path: IssuePath, issues: Issues): Override {
  const filename = readText(entry, 'filename', 1, ATTACHMENT_FILENAME_LENGTH_MAX, path, issues);
  const description = readText(entry, 'description', 0, ATTACHMENT_DESCRIPTION_LENGTH_MAX, path, issues);
  return {
    ...(filename !== undefined ? { filename } : {}),
    ...(description !== undefined ? { description } : {}),
  };
}

/** The message's files after this request, or the issues of its `attachments`. */
export function planAttachments(input: AttachmentPlanInput): Result<AttachmentPlan> {
  const { requested, uploads, existing, path, newId } = input;
  const issues: Issues = [];
  const byIndex = new Map(uploads.map((upload) => [String(upload.index), upload]));
  const byId = new Map(existing.map((attachment) => [attachment.id, attachment]));
  const attachments: StoredAttachment[] = [];
  const added: AttachmentPlan['added'][number][] = [];
  const listedUploads = new Set<string>();
  const kept = new Set<string>();

  const list = requested === undefined || requested === null ? undefined : readList(requested, path, issues);
  (list ?? []).forEach((raw, position) => {
    const entryPath = [...path, position];
    const entry = readRecord(raw, entryPath, issues);
    if (!entry) return;
    const id = entryId(fieldOf(entry, 'id'));
    const override = readOverride(entry, entryPath, issues);
    const upload = id === undefined ? undefined : byIndex.get(id);
    const current = id === undefined ? undefined : byId.get(id);
    if (upload && !listedUploads.has(id!)) {
      listedUploads.add(id!);
      const attachment = attachmentOfUpload(upload, newId(), override);
      attachments.push(attachment);
      added.push({ upload, attachment });
    } else if (current && !kept.has(current.id)) {
      kept.add(current.id);
      attachments.push(
        override.description === undefined ? current : { ...current, description: override.description },
      );
    } else {
      report(
        issues,
        [...entryPath, 'id'],
        ATTACHMENT_NOT_FOUND,
        'Unknown attachment: it names no uploaded file and no file of the message.',
      );
    }
  });
  // Without a list, an edit keeps what the message had; every request takes the uploads it did not list.
  if (requested === undefined) {
    for (const attachment of existing) attachments.push(attachment);
  }
  for (const upload of uploads) {
    if (listedUploads.has(String(upload.index))) continue;
    const attachment = attachmentOfUpload(upload, newId());
    attachments.push(attachment);
    added.push({ upload, attachment });
  }
  if (attachments.length > ATTACHMENTS_PER_MESSAGE_MAX) reportTooLong(issues, path, ATTACHMENTS_PER_MESSAGE_MAX);
  if (issues.length > 0) return fail(issues);
  const remaining = new Set(attachments.map((a) => a.id));
  return ok({ attachments, added, dropped: existing.filter((a) => !remaining.has(a.id)).map((a) => a.id) });
}
