/**
 * A sticker's file as v10 takes one: a PNG, an APNG (a PNG with an animation control chunk), a GIF,
 * or a Lottie animation (JSON), of at most 512 KiB; its format is read from its bytes, never from
 * the name or type the client gave it.
 */
import { StickerFormatType } from 'discord-api-types/v10';
import { BINARY_TYPE_MAX_SIZE, IMAGE_INVALID } from '../../../core/io/codes.js';
import { isRecord } from '../../../core/io/read.js';
import { report, reportRequired, type Issues } from '../../../core/io/report.js';
import { STICKER_FILE_BYTES_MAX } from './limits.js';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const GIF_SIGNATURE = [0x47, 0x49, 0x46, 0x38];
/** The PNG chunk that makes a PNG an animated one (APNG), before its first image data. */
const APNG_CONTROL_CHUNK = Buffer.from('acTL', 'ascii');
const PNG_DATA_CHUNK = Buffer.from('IDAT', 'ascii');

/** The media type each format is served with. */
export const STICKER_CONTENT_TYPES: Readonly<Record<number, string>> = {
  [StickerFormatType.PNG]: 'image/png',
  [StickerFormatType.APNG]: 'image/png',
  [StickerFormatType.Lottie]: 'application/json',
  [StickerFormatType.GIF]: 'image/gif',
};

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return bytes.length >= signature.length && signature.every((byte, i) => bytes[i] === byte);
}

/** A Lottie file: a JSON object with its version (`v`) and its `layers`. */
function isLottie(bytes: Buffer): boolean {
  try {
    const parsed: unknown = JSON.parse(bytes.toString('utf8'));
    return isRecord(parsed) && typeof parsed.v === 'string' && Array.isArray(parsed.layers);
  } catch {
    return false;
  }
}

/** The format of a sticker file's bytes, or undefined when it is none v10 takes. */
export function stickerFormatOf(bytes: Buffer): StickerFormatType | undefined {
  if (startsWith(bytes, PNG_SIGNATURE)) {
    const control = bytes.indexOf(APNG_CONTROL_CHUNK);
    const data = bytes.indexOf(PNG_DATA_CHUNK);
    return control >= 0 && (data < 0 || control < data) ? StickerFormatType.APNG : StickerFormatType.PNG;
  }
  if (startsWith(bytes, GIF_SIGNATURE)) return StickerFormatType.GIF;
  return isLottie(bytes) ? StickerFormatType.Lottie : undefined;
}

/** A sticker file read and checked. */
export interface StickerFile {
  format: StickerFormatType;
  bytes: Buffer;
}

/** The file's format, or the issue at `file`: none sent, too large, or not a sticker's format. */
export function checkStickerFile(bytes: Buffer | undefined, issues: Issues): StickerFile | undefined {
  if (bytes === undefined) {
    reportRequired(issues, ['file']);
    return undefined;
  }
  if (bytes.length > STICKER_FILE_BYTES_MAX) {
    report(issues, ['file'], BINARY_TYPE_MAX_SIZE, `File cannot be larger than ${STICKER_FILE_BYTES_MAX / 1024} kb.`);
    return undefined;
  }
  const format = stickerFormatOf(bytes);
  if (format === undefined) {
    report(issues, ['file'], IMAGE_INVALID, 'Invalid image data');
    return undefined;
  }
  return { format, bytes };
}
