/**
 * The Slack-compatible execute (`POST /webhooks/{id}/{token}/slack`): a Slack incoming-webhook body
 * read into an execute body (docs/decisions.md, "Webhooks: /slack and /github"). `text` is the
 * content, `username` and `icon_url` the sender's overrides, each of `attachments` an embed. What
 * the result holds is then checked by the execute's own rules (lengths, the 10 embeds).
 */
import { readJsonText } from '../../../core/io/json-text.js';
import { isRecord, type JsonRecord } from '../../../core/io/read.js';

type Json = Record<string, unknown>;

/** `#rgb` or `#rrggbb`, Slack's colors (its named ones, `good`/`warning`/`danger`, below). */
const HEX_COLOR = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;
/** Slack's named attachment colors, as Slack draws them. */
const NAMED_COLORS: Readonly<Record<string, number>> = { good: 0x2eb886, warning: 0xdaa038, danger: 0xa30200 };

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** An attachment's `color` as an embed color, or undefined when it names none. */
export function slackColor(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const named = NAMED_COLORS[value.toLowerCase()];
  if (named !== undefined) return named;
  const hex = HEX_COLOR.exec(value)?.[1];
  if (!hex) return undefined;
  const full = hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex;
  return Number.parseInt(full, 16);
}

/** Only the keys with a value: an embed carries no empty field. */
function compact(record: Json): Json | undefined {
  const kept = Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/** A Slack field (`title`/`short`, or the OpenAPI's `name`/`inline`) as an embed field. */
function slackField(field: unknown): Json | undefined {
  if (!isRecord(field)) return undefined;
  const name = text(field.name) ?? text(field.title);
  const value = text(field.value);
  if (name === undefined && value === undefined) return undefined;
  return { name: name ?? '\u200b', value: value ?? '\u200b', inline: field.inline === true || field.short === true };
}

/** One Slack attachment as an embed: title (and link), text, color, author, footer, image, thumbnail, time, fields. */
export function slackAttachmentEmbed(attachment: JsonRecord): Json | undefined {
  const description = [text(attachment.pretext), text(attachment.text)].filter(Boolean).join('\n');
  const fields = Array.isArray(attachment.fields)
    ? attachment.fields.map(slackField).filter((field): field is Json => field !== undefined)
    : [];
  const ts = attachment.ts;
  const seconds = typeof ts === 'number' ? ts : typeof ts === 'string' && /^\d+(\.\d+)?$/.test(ts) ? Number(ts) : NaN;
  return compact({
    title: text(attachment.title),
    url: text(attachment.title_link),
    description: description === '' ? undefined : description,
    color: slackColor(attachment.color),
    author: compact({
      name: text(attachment.author_name),
      url: text(attachment.author_link),
      icon_url: text(attachment.author_icon),
    }),
    footer: text(attachment.footer)
      ? compact({ text: text(attachment.footer), icon_url: text(attachment.footer_icon) })
      : undefined,
    image: text(attachment.image_url) ? { url: attachment.image_url } : undefined,
    thumbnail: text(attachment.thumb_url) ? { url: attachment.thumb_url } : undefined,
    timestamp: Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString() : undefined,
    fields: fields.length > 0 ? fields : undefined,
  });
}

/**
 * The execute body of a Slack body: `text` → `content`, `username`, `icon_url` → `avatar_url`,
 * `attachments` → `embeds` (an attachment with nothing to show is left out). A body that is no
 * object is passed on as it is, for the execute's rules to refuse.
 */
export function slackExecuteBody(sent: unknown): unknown {
  const body = formPayload(sent);
  if (!isRecord(body)) return body;
  const embeds = Array.isArray(body.attachments)
    ? body.attachments.flatMap((attachment) => {
        const embed = isRecord(attachment) ? slackAttachmentEmbed(attachment) : undefined;
        return embed ? [embed] : [];
      })
    : [];
  const execute: Json = {};
  if (typeof body.text === 'string') execute.content = body.text;
  if (typeof body.username === 'string' && body.username !== '') execute.username = body.username;
  if (typeof body.icon_url === 'string' && body.icon_url !== '') execute.avatar_url = body.icon_url;
  if (embeds.length > 0) execute.embeds = embeds;
  return execute;
}

/** A form body's `payload` field (Slack's form encoding) as the JSON body it holds; any other body as it is. */
function formPayload(body: unknown): unknown {
  if (!isRecord(body) || typeof body.payload !== 'string') return body;
  const read = readJsonText(body.payload);
  return read.ok ? read.value : body;
}
