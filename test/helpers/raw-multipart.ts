/**
 * Multipart bodies written byte by byte, for what `FormData` will not send: a part's Content-Type
 * with control characters (a Blob drops any type that is not printable ASCII), a filename as raw
 * UTF-8 bytes, any field name, `payload_json` that is not JSON.
 */

/** One part: a field (no `filename`) or a file; `contentType` is written as given. */
export interface RawPart {
  name: string;
  filename?: string | undefined;
  contentType?: string | undefined;
  body: string | Uint8Array;
}

/** The bytes and Content-Type header of a multipart/form-data body of `parts`. */
export function rawMultipart(parts: readonly RawPart[]): { body: Buffer; contentType: string } {
  const boundary = `----slashd-raw-${parts.length}-boundary`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      part.filename === undefined
        ? `form-data; name="${part.name}"`
        : `form-data; name="${part.name}"; filename="${part.filename}"`;
    const headers = [`Content-Disposition: ${disposition}`];
    if (part.contentType !== undefined) headers.push(`Content-Type: ${part.contentType}`);
    // Header bytes as UTF-8 (what browsers send for non-ASCII names); a control character goes as is.
    chunks.push(Buffer.from(`--${boundary}\r\n${headers.join('\r\n')}\r\n\r\n`, 'utf8'));
    chunks.push(typeof part.body === 'string' ? Buffer.from(part.body, 'utf8') : Buffer.from(part.body));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Sends `parts` as a multipart body: status and parsed JSON body (undefined when none). */
export async function sendRaw(
  url: string,
  method: string,
  auth: string,
  parts: readonly RawPart[],
): Promise<{ status: number; body: any; text: string }> {
  const { body, contentType } = rawMultipart(parts);
  const response = await fetch(url, { method, headers: { authorization: auth, 'content-type': contentType }, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, text };
}
