/**
 * The media of components v2 (thumbnails, media gallery items, files): an `attachment://name` url
 * names a file of the message. It must name one when the message is sent, and reads give the
 * file's own URL and what v10 says of it (`proxy_url`, size, type, `attachment_id`).
 */
import { ComponentType } from 'discord-api-types/v10';
import { UNFURLED_MEDIA_ITEM_REFERENCED_ATTACHMENT_NOT_FOUND } from '../../../core/io/codes.js';
import type { IssuePath } from '../../../core/io/issue.js';
import { isRecord } from '../../../core/io/read.js';
import { report, type Issues } from '../../../core/io/report.js';
import { COMPONENT_TREE_DEPTH_MAX } from '../../messages/rules/limits.js';
import type { StoredAttachment } from './model.js';
import { normalizeContentType } from './filename.js';

const ATTACHMENT_SCHEME = 'attachment://';

/** Where a media item sits in a component: the key holding `{url}`, under `items[n]` for a gallery. */
type MediaVisitor = (media: Record<string, unknown>, path: IssuePath, owner: Record<string, unknown>) => void;

/** Calls `visit` on every media item of the tree, with its path (the tree is at `path`). */
function eachMedia(tree: readonly unknown[], path: IssuePath, visit: MediaVisitor): void {
  const walk = (nodes: readonly unknown[], at: IssuePath, depth: number): void => {
    if (depth > COMPONENT_TREE_DEPTH_MAX) return;
    nodes.forEach((node, index) => {
      if (!isRecord(node)) return;
      const here = [...at, index];
      if (node.type === ComponentType.Thumbnail && isRecord(node.media)) visit(node.media, [...here, 'media'], node);
      if (node.type === ComponentType.File && isRecord(node.file)) visit(node.file, [...here, 'file'], node);
      if (node.type === ComponentType.MediaGallery && Array.isArray(node.items)) {
        node.items.forEach((item: unknown, i: number) => {
          if (isRecord(item) && isRecord(item.media)) visit(item.media, [...here, 'items', i, 'media'], item);
        });
      }
      if (Array.isArray(node.components)) walk(node.components as unknown[], [...here, 'components'], depth + 1);
      if (isRecord(node.accessory)) walk([node.accessory], [...here, 'accessory'], depth + 1);
    });
  };
  walk(tree, path, 0);
}

/** The name an `attachment://` url gives, or undefined for any other url. */
function referencedName(url: unknown): string | undefined {
  return typeof url === 'string' && url.startsWith(ATTACHMENT_SCHEME) ? url.slice(ATTACHMENT_SCHEME.length) : undefined;
}

/** The issues of `attachment://name` urls of the tree (at `path`) that name none of `attachments`. */
export function mediaReferenceIssues(
  tree: readonly unknown[],
  attachments: readonly StoredAttachment[],
  path: IssuePath,
): Issues {
  const issues: Issues = [];
  const names = new Set(attachments.map((a) => a.filename));
  eachMedia(tree, path, (media, mediaPath) => {
    const name = referencedName(media.url);
    if (name === undefined || names.has(name)) return;
    report(
      issues,
      [...mediaPath, 'url'],
      UNFURLED_MEDIA_ITEM_REFERENCED_ATTACHMENT_NOT_FOUND,
      `The referenced attachment ("${String(media.url)}") was not found`,
    );
  });
  return issues;
}

/** A deep copy of a JSON tree (components are stored JSON). */
function copyOf<T>(value: T): T {
  return structuredClone(value);
}

/**
 * The tree as a read gives it: every `attachment://name` media item becomes the file's (its URL,
 * `proxy_url`, type, size in pixels, `attachment_id`), and a file component gets the file's name
 * and size. Other media items are left as the app sent them.
 */
export function resolveComponentMedia(
  tree: readonly Record<string, unknown>[],
  attachments: readonly StoredAttachment[],
  urlOf: (attachment: StoredAttachment, proxy: boolean) => string,
): Record<string, unknown>[] {
  if (attachments.length === 0) return [...tree];
  const resolved = copyOf(tree) as Record<string, unknown>[];
  const byName = new Map(attachments.map((a) => [a.filename, a]));
  eachMedia(resolved, [], (media, _path, owner) => {
    const name = referencedName(media.url);
    const file = name === undefined ? undefined : byName.get(name);
    if (!file) return;
    media.url = urlOf(file, false);
    media.proxy_url = urlOf(file, true);
    media.attachment_id = file.id;
    const contentType = normalizeContentType(file.content_type);
    if (contentType !== undefined) media.content_type = contentType;
    if (file.width !== undefined) media.width = file.width;
    if (file.height !== undefined) media.height = file.height;
    if (owner.type === ComponentType.File) {
      owner.name = file.filename;
      owner.size = file.size;
    }
  });
  return resolved;
}
