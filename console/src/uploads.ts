/**
 * Files chosen for ATTACHMENT options: the form names each by an id of its own until the
 * invocation is sent; then they are uploaded with it (`payload_json` + `files[n]`), each option
 * naming its file by `n`, as clients do, and the app receives the real file.
 */
import { OptionType, type Json } from './types';

const chosen = new Map<string, File>();

/** A snowflake-shaped id for a chosen file (the form's value until the upload). */
function localId(): string {
  return (((BigInt(Date.now()) - 1420070400000n) << 22n) + BigInt(chosen.size)).toString();
}

/** Keeps `file` for the next invocation naming it; its id is the option's value in the form. */
export function chooseFile(file: File): string {
  const id = localId();
  chosen.set(id, file);
  return id;
}

function rewrite(options: unknown, files: File[]): unknown {
  if (!Array.isArray(options)) return options;
  return options.map((option: Json) => {
    const copy: Json = { ...option };
    if (Array.isArray(option.options)) copy.options = rewrite(option.options, files);
    const file = option.type === OptionType.Attachment ? chosen.get(String(option.value)) : undefined;
    if (file) {
      files.push(file);
      copy.value = files.length - 1;
    }
    return copy;
  });
}

/** The invocation as a multipart body with its chosen files, or null when it names none. */
export function uploadForm(body: Json): FormData | null {
  const files: File[] = [];
  const data = body.data ? { ...body.data, options: rewrite(body.data.options, files) } : body.data;
  if (files.length === 0) return null;
  const form = new FormData();
  form.append('payload_json', JSON.stringify({ ...body, data }));
  files.forEach((file, index) => form.append(`files[${index}]`, file, file.name));
  return form;
}
