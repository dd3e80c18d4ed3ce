/**
 * Files a user attaches to a command (ATTACHMENT options, type 11): the client names each upload
 * by the `n` of its `files[n]` field as the option's value, as v10 clients do; slashd stores the
 * file and the app receives the option with the file's snowflake, resolved in
 * `data.resolved.attachments`. An upload no ATTACHMENT option names is ignored, as v10 ignores it:
 * it is never stored.
 */
import { ApplicationCommandOptionType } from 'discord-api-types/v10';
import { isRecord } from '../../../core/io/read.js';

/** Option levels of a command: a subcommand group, its subcommand, then the subcommand's options. */
const OPTION_LEVELS_MAX = 3;

/** The value of an ATTACHMENT option as a `files[n]` index, or undefined. */
function uploadIndexOf(option: Record<string, unknown>): string | undefined {
  if (option.type !== ApplicationCommandOptionType.Attachment) return undefined;
  const value = option.value;
  return typeof value === 'number' || typeof value === 'string' ? String(value) : undefined;
}

/** The `files[n]` indices the body's ATTACHMENT options name, in subcommands too. */
export function referencedUploadIndices(body: unknown): Set<string> {
  const indices = new Set<string>();
  const walk = (options: unknown, level: number): void => {
    if (!Array.isArray(options) || level >= OPTION_LEVELS_MAX) return;
    for (const option of options as unknown[]) {
      if (!isRecord(option)) continue;
      const index = uploadIndexOf(option);
      if (index !== undefined) indices.add(index);
      walk(option.options, level + 1);
    }
  };
  if (isRecord(body) && isRecord(body.data)) walk(body.data.options, 0);
  return indices;
}

function rewriteOptions(options: unknown, idsByIndex: ReadonlyMap<string, string>): unknown {
  if (!Array.isArray(options)) return options;
  return options.map((option: unknown) => {
    if (!isRecord(option)) return option;
    const copy: Record<string, unknown> = { ...option };
    if ('options' in option) copy.options = rewriteOptions(option.options, idsByIndex);
    const index = uploadIndexOf(option);
    if (index !== undefined && idsByIndex.has(index)) {
      copy.value = idsByIndex.get(index);
    }
    return copy;
  });
}

/** The invocation body with every ATTACHMENT option naming an upload by its index given that upload's id instead. */
export function withUploadedAttachmentIds(body: unknown, idsByIndex: ReadonlyMap<string, string>): unknown {
  if (!isRecord(body) || !isRecord(body.data)) return body;
  return { ...body, data: { ...body.data, options: rewriteOptions(body.data.options, idsByIndex) } };
}
