/**
 * Errors as data. The core reports problems as `Issue`s (a path and a string code); the HTTP edge
 * turns them into the v10 wire format (`{code, message, errors}`) with `formErrorTree`.
 */
import { nullRecord } from '../records.js';

export type IssuePath = readonly (string | number)[];

/** One violation found in a request body: where it is and what rule it breaks. */
export interface Issue {
  readonly path: IssuePath;
  /** String code in the v10 style, one of `./codes.ts`, e.g. BASE_TYPE_REQUIRED. */
  readonly code: string;
  readonly message: string;
}

/**
 * The most issues one 50035 reports (the first ones found): a body of a million bad items would
 * otherwise be answered with a tree larger than itself.
 */
export const ISSUES_REPORTED_MAX = 1000;

export function issue(path: IssuePath, code: string, message: string): Issue {
  return { path, code, message };
}

/**
 * Builds the nested 50035 error tree: every path segment becomes a key (array indices as strings)
 * and every leaf holds `_errors`. An empty path puts `_errors` directly at the root. At most
 * `ISSUES_REPORTED_MAX` issues are reported.
 */
export function formErrorTree(issues: readonly Issue[]): Record<string, unknown> {
  // Segments are client-chosen keys: every node has no prototype, so "__proto__" is just a key.
  const root = nullRecord();
  for (const { path, code, message } of issues.slice(0, ISSUES_REPORTED_MAX)) {
    let node = root;
    for (const segment of path) {
      const key = String(segment);
      const child = node[key];
      if (child && typeof child === 'object') {
        node = child as Record<string, unknown>;
      } else {
        const created = nullRecord();
        node[key] = created;
        node = created;
      }
    }
    // A client's key "_errors" may already sit here as a subtree: the leaf list wins, never a crash.
    const list = Array.isArray(node._errors) ? (node._errors as { code: string; message: string }[]) : [];
    list.push({ code, message });
    node._errors = list;
  }
  return root;
}
