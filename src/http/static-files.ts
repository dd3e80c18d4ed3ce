/**
 * A built front end served from memory: the folder is read once at start-up (a few small files),
 * so a request never touches the file system and no path from a URL is ever joined to a folder.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';

/** The most bytes read from a static folder; a larger build is refused at start-up. */
export const STATIC_FOLDER_MAX_BYTES = 8 * 1024 * 1024;

const CONTENT_TYPES: Readonly<Record<string, string>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, string>, {
    '.html': 'text/html; charset=utf-8',
    '.js': 'text/javascript; charset=utf-8',
    '.css': 'text/css; charset=utf-8',
    '.svg': 'image/svg+xml',
    '.png': 'image/png',
    '.ico': 'image/x-icon',
    '.json': 'application/json',
    '.txt': 'text/plain; charset=utf-8',
  }),
);

export interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
}

/** Files by their path relative to the folder, with `/` separators (`index.html`, `assets/app-1a2b.js`). */
export function readStaticFolder(folder: string): Map<string, StaticFile> | null {
  if (!existsSync(folder)) return null;
  const files = new Map<string, StaticFile>();
  let total = 0;
  const visit = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        visit(path);
        continue;
      }
      const type = CONTENT_TYPES[extname(name)];
      if (!type) continue;
      const body = readFileSync(path);
      total += body.length;
      if (total > STATIC_FOLDER_MAX_BYTES)
        throw new Error(`${folder} holds more than ${STATIC_FOLDER_MAX_BYTES} bytes`);
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
      files.set(relative(folder, path).split(sep).join('/'), { body, type, etag });
    }
  };
  visit(folder);
  return files;
}
