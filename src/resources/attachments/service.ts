/**
 * Message attachments: which files a message ends up with (the core's plan), their bytes written
 * to the attachment store before the message that names them (and removed again when that message
 * is not written), the files an edit drops, and serving a file to whoever may read its message
 * (VIEW_CHANNEL and READ_MESSAGE_HISTORY, as reading the message needs; an ephemeral message's only
 * to its user).
 */
import type { APIAttachment } from 'discord-api-types/v10';
import { APPLICATION_ATTACHMENT_BYTES_MAX } from './rules/limits.js';
import type { StoredAttachment, UploadedFile } from './rules/model.js';
import { attachmentOfUpload, planAttachments } from './rules/plan.js';
import { cleanFilename } from './rules/filename.js';
import { apiError, invalidFormBody } from '../../core/io/errors.js';
import { orThrow } from '../../core/io/result.js';
import type { IssuePath } from '../../core/io/issue.js';
import { messageVisibleTo, type StoredMessage } from '../messages/rules/messages.js';
import { hasAll, READ_MESSAGE_HISTORY } from '../../core/permissions/bits.js';
import { isSnowflake, type SnowflakeGenerator } from '../../core/snowflake.js';
import { viewerId, type Viewer } from '../../core/world/viewer.js';
import type { AttachmentStore, DmChannelStore, InteractionStore, StoredAttachmentFile } from '../../store/store.js';
import { isDmEnd } from '../dms/service.js';
import { referencedUploadIndices, withUploadedAttachmentIds } from './rules/invocation.js';
import { toWireAttachment } from './rules/model.js';
import { isRecord } from '../../core/io/read.js';
import { mediaReferenceIssues } from './rules/component-media.js';
import { nullRecordFrom } from '../../core/records.js';
import { visibleChannel, type WorldReadStore } from '../world/reads.js';
import type { AttachmentUrls } from './urls.js';
import { carriesSignature, fileOfUrl, type NamedFile, type SignatureQuery } from './rules/signed-urls.js';
import { readRefreshRequest, type RefreshedUrl } from './rules/refresh-urls.js';

/** A file of the request, read to its end: what the core plans with, and its bytes piece by piece. */
export interface IncomingFile extends UploadedFile {
  /** The file's pieces, each at most ATTACHMENT_CHUNK_BYTES, in order; may be iterated more than once. */
  readonly chunks: () => AsyncIterable<Uint8Array>;
}

/** What a message's body says of its files, and the files that came with it. */
export interface MessageFiles {
  /** The body's `attachments` as sent: undefined when absent. */
  readonly requested: unknown;
  readonly files: readonly IncomingFile[];
  /** Where `attachments` sits in the body, for the 50035 tree (`['data', 'attachments']` in a callback). */
  readonly path?: IssuePath;
}

/** The outcome of `attach`: the message's files now, and what to undo or finish once the message is (not) written. */
export interface AttachedFiles {
  readonly attachments: StoredAttachment[];
  /** Removes the files this call stored: the message naming them was not written. */
  discard(): Promise<void>;
  /** Removes the files the edit dropped: call once the edited message is written. */
  commit(): Promise<void>;
}

export interface AttachmentsDeps {
  store: {
    attachments: AttachmentStore;
    interactions: Pick<InteractionStore, 'getMessage'>;
    dms: Pick<DmChannelStore, 'getDmChannel'>;
  };
  world: WorldReadStore['world'];
  members: WorldReadStore['members'];
  ids: SnowflakeGenerator;
  /** The clock a reader's timeout is read at. */
  now: () => number;
  /** Signs the URLs of an invocation's resolved attachments and of refreshed URLs, and checks those served. */
  urls: AttachmentUrls;
}

/** What a command's files become: the body naming them by id, their attachment objects, and their undoing. */
export interface InvocationFiles {
  readonly body: unknown;
  /** `data.resolved.attachments` of the interaction: attachment objects by id. */
  readonly resolved: Record<string, APIAttachment>;
  /** Removes the stored files: the invocation was refused. */
  discard(): Promise<void>;
}

/** The message id of files a user attached to a command: no message holds them. */
const INVOCATION_FILES = '0';

/** A file as it is served: what v10 says of it, and its bytes piece by piece. */
export interface ServedFile {
  readonly attachment: StoredAttachment;
  readonly pieces: AsyncIterable<Uint8Array>;
}

/** The `attachments` of a message body, when it has one. */
export function requestedAttachments(body: unknown): unknown {
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>).attachments
    : undefined;
}

export class AttachmentsService {
  constructor(private readonly deps: AttachmentsDeps) {}

  /**
   * The files `message` has after this request (`existing` are its files before an edit), the new
   * ones stored under `ownerId`'s bound. Throws the 50035 tree of `attachments`, or 40005 past the bound.
   */
  async attach(
    message: Pick<StoredMessage, 'id' | 'channel_id'>,
    ownerId: string,
    request: MessageFiles,
    existing: readonly StoredAttachment[] = [],
  ): Promise<AttachedFiles> {
    const plan = planAttachments({
      requested: request.requested,
      uploads: request.files,
      existing,
      path: request.path ?? ['attachments'],
      newId: () => this.deps.ids.next(),
    });
    if (!plan.ok) throw invalidFormBody(plan.issues);
    const { added, dropped, attachments } = plan.value;
    const store = this.deps.store.attachments;
    if (added.length > 0) {
      const adding = added.reduce((sum, item) => sum + item.attachment.size, 0);
      if ((await store.storedBytes(ownerId)) + adding > APPLICATION_ATTACHMENT_BYTES_MAX)
        throw apiError('UploadTooLarge');
      await store.putFiles(
        { ownerId, channelId: message.channel_id, messageId: message.id },
        added.map(({ upload, attachment }) => ({
          id: attachment.id,
          size: attachment.size,
          attachment,
          chunks: (upload as IncomingFile).chunks,
        })),
      );
    }
    const addedIds = added.map((item) => item.attachment.id);
    return {
      attachments,
      discard: () => store.deleteFiles(message.channel_id, addedIds),
      commit: () => store.deleteFiles(message.channel_id, dropped),
    };
  }

  /**
   * Stores the files a user attached to a command in `body`'s channel (each ATTACHMENT option names
   * one by its `files[n]` index) and gives the body their ids; null when no option names one. The
   * uploads no option names are not stored (v10 ignores them), so nothing is left without an owner.
   */
  async forInvocation(userId: string, body: unknown, files: readonly IncomingFile[]): Promise<InvocationFiles | null> {
    // Only a snowflake keys stored files; the invocation itself refuses any other channel id.
    const channelId = isRecord(body) && isSnowflake(body.channel_id) ? body.channel_id : null;
    const named = referencedUploadIndices(body);
    const referenced = files.filter((file) => named.has(String(file.index)));
    if (referenced.length === 0 || channelId === null) return null;
    const idsByIndex = new Map<string, string>();
    const stored = referenced.map((file) => {
      const attachment = attachmentOfUpload(file, this.deps.ids.next());
      idsByIndex.set(String(file.index), attachment.id);
      return { id: attachment.id, size: attachment.size, attachment, chunks: file.chunks };
    });
    const adding = stored.reduce((sum, file) => sum + file.size, 0);
    const store = this.deps.store.attachments;
    if ((await store.storedBytes(userId)) + adding > APPLICATION_ATTACHMENT_BYTES_MAX) throw apiError('UploadTooLarge');
    await store.putFiles({ ownerId: userId, channelId, messageId: INVOCATION_FILES }, stored);
    const urlOf = await this.deps.urls.urlOf();
    const resolved = nullRecordFrom(
      stored.map((file) => [file.id, toWireAttachment(channelId, file.attachment, urlOf, true)] as const),
    );
    return {
      body: withUploadedAttachmentIds(body, idsByIndex),
      resolved,
      discard: () => store.deleteFiles(channelId, [...idsByIndex.values()]),
    };
  }

  /**
   * A file at its URL. A signed URL (`query` carries `ex`, `is` or `hm`) is served to anyone while
   * its signature holds and its file is there, whoever asks, token or not; otherwise v10's CDN
   * answer, 404 "This content is no longer available.". An unsigned URL is served to a `viewer`
   * who may read the message (or a command's file, to anyone who may read the channel), else 404.
   */
  async serve(
    viewer: Viewer | null,
    channelId: string,
    attachmentId: string,
    filename: string,
    query: SignatureQuery,
  ): Promise<ServedFile> {
    if (carriesSignature(query)) {
      const check = await this.deps.urls.check(channelId, attachmentId, filename, query);
      if (check !== 'valid') throw apiError('ContentNoLongerAvailable');
      const served = await this.servedFile(null, channelId, attachmentId, filename);
      if (!served) throw apiError('ContentNoLongerAvailable');
      return served;
    }
    if (viewer === null) throw apiError('Unauthorized');
    await this.checkReadable(viewer, channelId);
    const served = await this.servedFile(viewer, channelId, attachmentId, filename);
    if (!served) throw apiError('NotFound');
    return served;
  }

  /** The file and its pieces when it is still there (a `viewer` given: when that viewer may read it), else null. */
  private async servedFile(
    viewer: Viewer | null,
    channelId: string,
    attachmentId: string,
    filename: string,
  ): Promise<ServedFile | null> {
    const attachment = await this.currentAttachment(viewer, channelId, attachmentId);
    // The URL names the file as `attachmentPath` wrote it: cleaned again, whenever it was stored.
    if (!attachment || cleanFilename(attachment.filename) !== filename) return null;
    const pieces = await this.deps.store.attachments.readFile(channelId, attachmentId);
    return pieces ? { attachment, pieces } : null;
  }

  /** The attachment object of a stored file still held by its message (as `viewer` sees it, when given). */
  private async currentAttachment(
    viewer: Viewer | null,
    channelId: string,
    attachmentId: string,
  ): Promise<StoredAttachment | null> {
    const file = await this.deps.store.attachments.findFile(channelId, attachmentId);
    return file ? this.readableAttachment(viewer, channelId, file) : null;
  }

  /**
   * `POST /attachments/refresh-urls`: each URL naming a file that is still there, signed anew. A
   * URL is renewed when its own signature is slashd's (expired or not), or when `viewer` may read
   * the file; any other (not slashd's, a file gone, one the caller may not read) is left out, so
   * that the answer tells nothing of files the caller could not already read.
   */
  async refreshUrls(viewer: Viewer, body: unknown): Promise<RefreshedUrl[]> {
    const urls = orThrow(readRefreshRequest(body));
    const urlOf = await this.deps.urls.urlOf();
    const refreshed: RefreshedUrl[] = [];
    for (const original of urls) {
      const named = fileOfUrl(original);
      if (!named) continue;
      const attachment = await this.refreshable(viewer, named);
      if (attachment) refreshed.push({ original, refreshed: urlOf(named.channelId, attachment, named.proxy) });
    }
    return refreshed;
  }

  private async refreshable(viewer: Viewer, named: NamedFile): Promise<StoredAttachment | null> {
    const { channelId, attachmentId, filename, query } = named;
    const check = await this.deps.urls.check(channelId, attachmentId, filename, query);
    const signed = check === 'valid' || check === 'expired';
    if (!signed && !(await this.mayRead(viewer, channelId))) return null;
    const attachment = await this.currentAttachment(signed ? null : viewer, channelId, attachmentId);
    return attachment && cleanFilename(attachment.filename) === filename ? attachment : null;
  }

  private async mayRead(viewer: Viewer, channelId: string): Promise<boolean> {
    try {
      await this.checkReadable(viewer, channelId);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Refuses a viewer who may not read the channel's history: a DM's two ends (its user and its
   * bot) read it, nobody else; a guild channel by the permission algorithm.
   */
  private async checkReadable(viewer: Viewer, channelId: string): Promise<void> {
    const dm = await this.deps.store.dms.getDmChannel(channelId);
    if (dm) {
      if (!isDmEnd(dm, viewer)) throw apiError('MissingAccess');
      return;
    }
    const { permissions } = await visibleChannel(this.deps, viewer, channelId);
    if (!hasAll(permissions, READ_MESSAGE_HISTORY)) throw apiError('MissingAccess');
  }

  /**
   * The file's attachment object while its message holds it (or it is a command's), and, with a
   * `viewer`, when that viewer may see the message.
   */
  private async readableAttachment(
    viewer: Viewer | null,
    channelId: string,
    file: StoredAttachmentFile,
  ): Promise<StoredAttachment | null> {
    if (file.messageId === INVOCATION_FILES) return file.attachment;
    const message = await this.deps.store.interactions.getMessage(channelId, file.messageId);
    if (!message || (viewer !== null && !messageVisibleTo(message, viewerId(viewer)))) return null;
    return message.attachments?.find((a) => a.id === file.attachment.id) ?? null;
  }
}

/**
 * Refuses a message whose components name by `attachment://` a file it does not have (its
 * components are at `path` in the body), removing the files this request stored for it.
 */
export async function checkComponentMedia(
  message: StoredMessage,
  path: IssuePath,
  attached: AttachedFiles | null,
): Promise<void> {
  const issues = mediaReferenceIssues(message.components, message.attachments ?? [], path);
  if (issues.length === 0) return;
  await attached?.discard();
  throw invalidFormBody(issues);
}

/**
 * Sets `message.attachments` from the body's `attachments` and the request's files (`before` is
 * the message an edit changes), storing the new files first; null when the body says nothing of
 * files.
 */
export async function attachFiles(
  service: AttachmentsService,
  message: StoredMessage,
  requested: unknown,
  files: readonly IncomingFile[],
  path: IssuePath,
  before?: StoredMessage,
): Promise<AttachedFiles | null> {
  if (files.length === 0 && requested === undefined) return null;
  const attached = await service.attach(message, message.author.id, { requested, files, path }, before?.attachments);
  message.attachments = attached.attachments;
  return attached;
}
