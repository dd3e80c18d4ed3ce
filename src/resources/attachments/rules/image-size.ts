/**
 * Width and height of PNG, JPEG, GIF and WebP images, read from their first bytes (no decoding):
 * what v10 reports as an image attachment's `width`/`height`. Anything else, or a header cut short,
 * has no dimensions.
 */

export interface ImageInfo {
  readonly content_type: string;
  readonly width: number;
  readonly height: number;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  return prefix.every((byte, index) => bytes[at + index] === byte);
}

function u16be(bytes: Uint8Array, at: number): number {
  return ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
}
function u16le(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}
function u24le(bytes: Uint8Array, at: number): number {
  return u16le(bytes, at) | ((bytes[at + 2] ?? 0) << 16);
}
function u32be(bytes: Uint8Array, at: number): number {
  return u16be(bytes, at) * 0x10000 + u16be(bytes, at + 2);
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** PNG: the IHDR chunk comes first, width and height at bytes 16 and 20. */
function png(bytes: Uint8Array): ImageInfo | null {
  if (bytes.length < 24 || !startsWith(bytes, PNG_SIGNATURE)) return null;
  return { content_type: 'image/png', width: u32be(bytes, 16), height: u32be(bytes, 20) };
}

/** GIF87a/GIF89a: the logical screen's width and height follow the signature, little-endian. */
function gif(bytes: Uint8Array): ImageInfo | null {
  if (bytes.length < 10 || !startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return null;
  return { content_type: 'image/gif', width: u16le(bytes, 6), height: u16le(bytes, 8) };
}

/** A JPEG start-of-frame marker: baseline, progressive and the other SOFn (not DHT, JPG, DAC). */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** JPEG: segments are walked to the first start-of-frame, which holds height then width. */
function jpeg(bytes: Uint8Array): ImageInfo | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (isStartOfFrame(marker)) {
      return { content_type: 'image/jpeg', height: u16be(bytes, at + 5), width: u16be(bytes, at + 7) };
    }
    at += 2 + u16be(bytes, at + 2);
  }
  return null;
}

/** WebP: a RIFF container whose first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended). */
function webp(bytes: Uint8Array): ImageInfo | null {
  if (
    bytes.length < 30 ||
    !startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) ||
    !startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)
  ) {
    return null;
  }
  const chunk = String.fromCharCode(...bytes.subarray(12, 16));
  const info = (width: number, height: number): ImageInfo => ({ content_type: 'image/webp', width, height });
  if (chunk === 'VP8 ') return info(u16le(bytes, 26) & 0x3fff, u16le(bytes, 28) & 0x3fff);
  if (chunk === 'VP8L') {
    const bits = (bytes[21] ?? 0) | ((bytes[22] ?? 0) << 8) | ((bytes[23] ?? 0) << 16) | ((bytes[24] ?? 0) << 24);
    return info((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') return info(u24le(bytes, 24) + 1, u24le(bytes, 27) + 1);
  return null;
}

/** The image's type and size from its first bytes, or null for anything that is not one of the four. */
export function readImageInfo(bytes: Uint8Array): ImageInfo | null {
  return png(bytes) ?? gif(bytes) ?? jpeg(bytes) ?? webp(bytes);
}
