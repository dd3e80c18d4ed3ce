/**
 * The admin token of a database: generated once, kept in `admin-token` next to the SQLite file
 * (owner-only permissions), and read back at every start, so that scripts and `slashd invoke`
 * keep working across restarts. An in-memory database gets a fresh token each time.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The file's name, in the database's directory. */
export const ADMIN_TOKEN_FILE = 'admin-token';
/** Owner read and write only: the token grants the whole admin API. */
export const ADMIN_TOKEN_FILE_MODE = 0o600;
/** Random bytes in a generated token (base64url: 32 characters). */
export const ADMIN_TOKEN_BYTES = 24;

export function generateAdminToken(): string {
  return randomBytes(ADMIN_TOKEN_BYTES).toString('base64url');
}

/** Where the admin token of the database at `dbPath` is kept; null for an in-memory database. */
export function adminTokenPath(dbPath: string): string | null {
  return dbPath === ':memory:' ? null : join(dirname(dbPath), ADMIN_TOKEN_FILE);
}

/** The token kept in the file at `path`; null when there is none. */
export function readToken(path: string): string | null {
  try {
    const token = readFileSync(path, 'utf8').trim();
    return token === '' ? null : token;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The stored token, or a new one written with owner-only permissions. */
export function loadOrCreateAdminToken(dbPath: string): string {
  const path = adminTokenPath(dbPath);
  if (path === null) return generateAdminToken();
  const existing = readToken(path);
  if (existing) return existing;
  const token = generateAdminToken();
  writeFileSync(path, `${token}\n`, { mode: ADMIN_TOKEN_FILE_MODE });
  return token;
}

/** The token kept next to `dbPath`, if there is one (for the client commands). */
export function readAdminTokenFile(dbPath: string): string | null {
  const path = adminTokenPath(dbPath);
  return path === null ? null : readToken(path);
}
