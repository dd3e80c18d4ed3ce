/**
 * The layout and content components of components v2 (messages with the IS_COMPONENTS_V2 flag):
 * containers (17), sections (9), thumbnails (11), media galleries (12), files (13) and separators
 * (14); text displays (10) are shared with modals. What each may hold is said here, where it stands
 * by the message's layout (./message-components.ts).
 */
import { ComponentType } from 'discord-api-types/v10';
import type { IssuePath } from '../../../core/io/issue.js';
import { fieldOf, isAbsent, readInteger, readRecord, type JsonRecord } from '../../../core/io/read.js';
import { reportNotOneOf, reportRequired, type Issues } from '../../../core/io/report.js';
import type { ComponentContext } from '../../interactions/rules/component-context.js';
import {
  CONTAINER_ACCENT_COLOR_MAX,
  CONTAINER_COMPONENTS_MAX,
  CONTAINER_COMPONENTS_MIN,
  MEDIA_DESCRIPTION_LENGTH_MAX,
  MEDIA_DESCRIPTION_LENGTH_MIN,
  MEDIA_GALLERY_ITEMS_MAX,
  MEDIA_GALLERY_ITEMS_MIN,
  MEDIA_URL_LENGTH_MAX,
  SECTION_COMPONENTS_MAX,
  SECTION_COMPONENTS_MIN,
  SEPARATOR_SPACINGS,
} from './limits.js';
import { optionalFlag, optionalInteger, optionalText, requiredList } from '../../interactions/rules/record-fields.js';
import { IMAGE_SCHEMES, readUrl } from './urls.js';

/** What a container may hold: everything a v2 message's top level may, but containers and thumbnails. */
export const CONTAINER_CHILD_TYPES: readonly number[] = [
  ComponentType.ActionRow,
  ComponentType.Section,
  ComponentType.TextDisplay,
  ComponentType.MediaGallery,
  ComponentType.File,
  ComponentType.Separator,
];
/** What a section's text column holds. */
const SECTION_CHILD_TYPES: readonly number[] = [ComponentType.TextDisplay];
/** What stands beside a section's text: a button or a thumbnail. */
const SECTION_ACCESSORY_TYPES: readonly number[] = [ComponentType.Button, ComponentType.Thumbnail];
/** A file component shows a file of the message only. */
const FILE_SCHEMES: readonly string[] = ['attachment'];

/** An unfurled media item (`{url}`) at `key`: a URL of one of `schemes`, `attachment://name` naming a file. */
function checkMedia(record: JsonRecord, key: string, schemes: readonly string[], path: IssuePath, issues: Issues) {
  const raw = fieldOf(record, key);
  const mediaPath = [...path, key];
  if (isAbsent(raw)) {
    reportRequired(issues, mediaPath);
    return;
  }
  const media = readRecord(raw, mediaPath, issues);
  if (!media) return;
  const url = fieldOf(media, 'url');
  if (isAbsent(url)) reportRequired(issues, [...mediaPath, 'url']);
  else readUrl(url, schemes, MEDIA_URL_LENGTH_MAX, [...mediaPath, 'url'], issues);
}

const DESCRIPTION_BOUNDS = { min: MEDIA_DESCRIPTION_LENGTH_MIN, max: MEDIA_DESCRIPTION_LENGTH_MAX };

/** An image with its alt text: a thumbnail, or a gallery item. */
function checkPicture(picture: JsonRecord, path: IssuePath, issues: Issues): void {
  checkMedia(picture, 'media', IMAGE_SCHEMES, path, issues);
  optionalText(picture, 'description', DESCRIPTION_BOUNDS, path, issues);
  optionalFlag(picture, 'spoiler', path, issues);
}

/** Checks a container: its children, accent color and spoiler. */
export function checkContainer(container: JsonRecord, path: IssuePath, ctx: ComponentContext): void {
  const bounds = { min: CONTAINER_COMPONENTS_MIN, max: CONTAINER_COMPONENTS_MAX };
  const list = requiredList(container, 'components', bounds, path, ctx.issues);
  list?.forEach((child, index) => ctx.nested(child, [...path, 'components', index], CONTAINER_CHILD_TYPES));
  optionalInteger(container, 'accent_color', 0, CONTAINER_ACCENT_COLOR_MAX, path, ctx.issues);
  optionalFlag(container, 'spoiler', path, ctx.issues);
}

/** Checks a section: 1-3 text displays and the one accessory beside them. */
export function checkSection(section: JsonRecord, path: IssuePath, ctx: ComponentContext): void {
  const bounds = { min: SECTION_COMPONENTS_MIN, max: SECTION_COMPONENTS_MAX };
  const list = requiredList(section, 'components', bounds, path, ctx.issues);
  list?.forEach((child, index) => ctx.nested(child, [...path, 'components', index], SECTION_CHILD_TYPES));
  const accessory = fieldOf(section, 'accessory');
  if (isAbsent(accessory)) reportRequired(ctx.issues, [...path, 'accessory']);
  else ctx.nested(accessory, [...path, 'accessory'], SECTION_ACCESSORY_TYPES);
}

/** Checks a thumbnail (a section's accessory). */
export function checkThumbnail(thumbnail: JsonRecord, path: IssuePath, ctx: ComponentContext): void {
  checkPicture(thumbnail, path, ctx.issues);
}

/** Checks a media gallery: 1-10 pictures. */
export function checkMediaGallery(gallery: JsonRecord, path: IssuePath, ctx: ComponentContext): void {
  const bounds = { min: MEDIA_GALLERY_ITEMS_MIN, max: MEDIA_GALLERY_ITEMS_MAX };
  const items = requiredList(gallery, 'items', bounds, path, ctx.issues);
  items?.forEach((raw, index) => {
    const itemPath = [...path, 'items', index];
    const item = readRecord(raw, itemPath, ctx.issues);
    if (item) checkPicture(item, itemPath, ctx.issues);
  });
}

/** Checks a file component: an `attachment://name` of the message's files. */
export function checkFile(file: JsonRecord, path: IssuePath, ctx: ComponentContext): void {
  checkMedia(file, 'file', FILE_SCHEMES, path, ctx.issues);
  optionalFlag(file, 'spoiler', path, ctx.issues);
}

/** Checks a separator: its spacing (1 small, 2 large) and whether it draws a line. */
export function checkSeparator(separator: JsonRecord, path: IssuePath, ctx: ComponentContext): void {
  const raw = fieldOf(separator, 'spacing');
  const spacingPath = [...path, 'spacing'];
  const spacing = isAbsent(raw) ? undefined : readInteger(raw, spacingPath, ctx.issues);
  if (spacing !== undefined && !SEPARATOR_SPACINGS.includes(spacing)) {
    reportNotOneOf(ctx.issues, spacingPath, SEPARATOR_SPACINGS);
  }
  optionalFlag(separator, 'divider', path, ctx.issues);
}
