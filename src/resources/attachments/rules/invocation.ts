/**
 * Files a user attaches to a command (ATTACHMENT options, type 11): the client names each upload
 * by the `n` of its `files[n]` field as the option's value, as v10 clients do; slashd stores the
 * file and the app receives the option with the file's snowflake, resolved in
 * `data.resolved.attachments`.
 */
import { ApplicationCommandOptionType } from 'discord-api-types/v10';
import { isRecord } from '../../../core/io/read.js';

function rewriteOptions(options: unknown, idsByIndex: ReadonlyMap<string, string>): unknown {
  if (!Array.isArray(options)) return options;
  return options.map((option: unknown) => {
    if (!isRecord(option)) return option;
    const copy: Record<string, unknown> = { ...option };
    if ('options' in option) copy.options = rewriteOptions(option.options, idsByIndex);
    const value = option.value;
    const index = typeof value === 'number' || typeof value === 'string' ? String(value) : undefined;
    if (option.type === ApplicationCommandOptionType.Attachment && index !== undefined && idsByIndex.has(index)) {
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
