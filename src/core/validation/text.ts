/** Text lengths as v10 counts them: in code points, so an emoji or a CJK extension letter is one. */
import type { IssuePath } from '../io/issue.js';
import { reportBadLength, type Issues } from '../io/report.js';

const SURROGATE = /[\uD800-\uDFFF]/;

export function codePointLength(text: string): number {
  // Most text has no surrogates, and then every UTF-16 unit is a code point.
  if (!SURROGATE.test(text)) return text.length;
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is a single code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}

export function checkLength(text: string, min: number, max: number, path: IssuePath, issues: Issues): void {
  // A string has between half its UTF-16 length and its UTF-16 length in code points.
  if (text.length <= max && Math.ceil(text.length / 2) >= min) return;
  const length = codePointLength(text);
  if (length < min || length > max) reportBadLength(issues, path, min, max);
}
