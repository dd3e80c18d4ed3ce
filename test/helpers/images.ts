/** The first bytes of small images of each kind slashd reads dimensions from, built by hand. */
import { deflateSync } from 'node:zlib';
import { crc32 } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A whole, valid PNG of `width` x `height` grey pixels. */
export function pngImage(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y += 1) rows[y * (width + 1)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A whole, valid 8-bit RGB PNG of `width` x `height`, each pixel's colour from `pixelAt`. */
function pngPixels(width: number, height: number, pixelAt: (x: number, y: number) => readonly number[]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const stride = width * 3 + 1;
  const rows = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) rows.set(pixelAt(x, y), y * stride + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A whole, valid PNG of `width` x `height` RGB pixels, shading from `top` to `bottom` (for screenshots). */
export function pngGradient(
  width: number,
  height: number,
  top: [number, number, number],
  bottom: [number, number, number],
): Buffer {
  return pngPixels(width, height, (_x, y) => {
    const t = height > 1 ? y / (height - 1) : 0;
    return top.map((from, i) => Math.round(from + (bottom[i]! - from) * t));
  });
}

/** The bars' colours of `pngBarChart`, in turn. */
const BAR_COLOURS = [
  [71, 82, 196],
  [31, 122, 61],
  [214, 120, 30],
  [179, 38, 30],
];
const CHART_BACKGROUND = [242, 243, 245];

/**
 * A whole, valid PNG of `width` x `height`: a light background with one coloured bar per value
 * (0-1, the bar's height), for screenshots where an image should look like one.
 */
export function pngBarChart(width: number, height: number, values: readonly number[]): Buffer {
  const slot = width / values.length;
  return pngPixels(width, height, (x, y) => {
    const bar = Math.floor(x / slot);
    const inBar = x - bar * slot > slot * 0.15 && x - bar * slot < slot * 0.85;
    const top = height * (1 - (values[bar] ?? 0));
    return inBar && y >= top ? BAR_COLOURS[bar % BAR_COLOURS.length]! : CHART_BACKGROUND;
  });
}

/** A JPEG start: SOI, an APP0 segment, then a baseline frame header. */
export function jpegHead(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.alloc(16)]);
}

export function gifHead(width: number, height: number): Buffer {
  const head = Buffer.alloc(13);
  head.write('GIF89a', 0, 'ascii');
  head.writeUInt16LE(width, 6);
  head.writeUInt16LE(height, 8);
  return head;
}

/** A WebP with a VP8X (extended) first chunk. */
export function webpHead(width: number, height: number): Buffer {
  const head = Buffer.alloc(30);
  head.write('RIFF', 0, 'ascii');
  head.writeUInt32LE(22, 4);
  head.write('WEBPVP8X', 8, 'ascii');
  head.writeUInt32LE(10, 16);
  head.writeUIntLE(width - 1, 24, 3);
  head.writeUIntLE(height - 1, 27, 3);
  return head;
}
