/**
 * A button (type 2). Its style decides what it needs: styles 1-4 send an interaction and need a
 * `custom_id` (and have no `url`), a link button (5) needs a `url` (and has no `custom_id`), a
 * premium button (6) needs a `sku_id` and shows nothing the app chose.
 */
import { ButtonStyle } from 'discord-api-types/v10';
import { enumValues } from '../../../core/enum-values.js';
import { BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE } from '../../../core/io/codes.js';
import type { IssuePath } from '../../../core/io/issue.js';
import { fieldOf, isAbsent, readInteger, readSnowflake, type JsonRecord } from '../../../core/io/read.js';
import { report, reportNotOneOf, reportRequired, type Issues } from '../../../core/io/report.js';
import { readCustomId, type ComponentContext } from '../../interactions/rules/component-context.js';
import { checkComponentEmoji } from './component-emoji.js';
import { forbidField, hasField, optionalFlag, optionalText } from '../../interactions/rules/record-fields.js';
import { BUTTON_LABEL_LENGTH_MAX, BUTTON_URL_LENGTH_MAX } from './limits.js';
import { LINK_BUTTON_SCHEMES, readUrl } from './urls.js';

/** The v10 button styles. */
const BUTTON_STYLES: readonly number[] = enumValues(ButtonStyle);

function readStyle(button: JsonRecord, path: IssuePath, issues: Issues): number | undefined {
  const raw = fieldOf(button, 'style');
  const stylePath = [...path, 'style'];
  if (isAbsent(raw)) {
    reportRequired(issues, stylePath);
    return undefined;
  }
  const style = readInteger(raw, stylePath, issues);
  if (style === undefined || BUTTON_STYLES.includes(style)) return style;
  reportNotOneOf(issues, stylePath, BUTTON_STYLES);
  return undefined;
}

/** A button given both a custom id and a url, reported at the one its style does not take. */
function checkNotBoth(button: JsonRecord, wrongKey: 'custom_id' | 'url', path: IssuePath, issues: Issues): void {
  if (hasField(button, 'custom_id') && hasField(button, 'url')) {
    report(
      issues,
      [...path, wrongKey],
      BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE,
      'A custom id and url cannot both be specified',
    );
  }
}

function checkInteractiveButton(button: JsonRecord, path: IssuePath, ctx: ComponentContext): void {
  readCustomId(button, path, ctx, 'button');
  checkNotBoth(button, 'url', path, ctx.issues);
  forbidField(button, 'sku_id', 'Only premium buttons have a sku_id.', path, ctx.issues);
}

function checkLinkButton(button: JsonRecord, path: IssuePath, ctx: ComponentContext): void {
  const url = fieldOf(button, 'url');
  if (isAbsent(url)) reportRequired(ctx.issues, [...path, 'url']);
  else readUrl(url, LINK_BUTTON_SCHEMES, BUTTON_URL_LENGTH_MAX, [...path, 'url'], ctx.issues);
  checkNotBoth(button, 'custom_id', path, ctx.issues);
  forbidField(button, 'sku_id', 'Only premium buttons have a sku_id.', path, ctx.issues);
}

/** What a premium button may not carry: the client draws it from the SKU. */
const PREMIUM_FORBIDDEN = ['custom_id', 'url', 'label', 'emoji'] as const;

function checkPremiumButton(button: JsonRecord, path: IssuePath, ctx: ComponentContext): void {
  const skuId = fieldOf(button, 'sku_id');
  if (isAbsent(skuId)) reportRequired(ctx.issues, [...path, 'sku_id']);
  else readSnowflake(skuId, [...path, 'sku_id'], ctx.issues);
  for (const key of PREMIUM_FORBIDDEN) {
    forbidField(button, key, `A premium button has no ${key}.`, path, ctx.issues);
  }
}

/** Checks a button. */
export function checkButton(button: JsonRecord, path: IssuePath, ctx: ComponentContext): void {
  const style = readStyle(button, path, ctx.issues);
  optionalFlag(button, 'disabled', path, ctx.issues);
  if (style === ButtonStyle.Premium) {
    checkPremiumButton(button, path, ctx);
    return;
  }
  optionalText(button, 'label', { min: 0, max: BUTTON_LABEL_LENGTH_MAX }, path, ctx.issues);
  const emoji = fieldOf(button, 'emoji');
  if (!isAbsent(emoji)) checkComponentEmoji(emoji, [...path, 'emoji'], ctx.issues);
  if (style === ButtonStyle.Link) checkLinkButton(button, path, ctx);
  else if (style !== undefined) checkInteractiveButton(button, path, ctx);
}
