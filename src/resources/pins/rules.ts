/**
 * A channel's pins (docs/v10-behaviour.md#pins): how many a channel holds, the query of their list
 * (`limit`, and `before` as a time), and CHANNEL_PINS_UPDATE.
 */
import type { GatewayChannelPinsUpdateDispatchData } from 'discord-api-types/v10';
import { DATE_TIME_TYPE_PARSE } from '../../core/io/codes.js';
import { issue, type Issue } from '../../core/io/issue.js';
import { fail, ok, type Result } from '../../core/io/result.js';
import { readIntegerParam } from '../../core/world/page-query.js';
import type { WorldDispatch } from '../../core/world/dispatch.js';
import { isIsoTimestamp } from '../messages/rules/embeds.js';

/** Pins one channel holds at most (v10 raised it from 50 with the paged pins list). */
export const MAX_PINS_PER_CHANNEL = 250;
/** Pins one page of `GET /channels/{id}/messages/pins` holds at most, and by default. */
export const PINS_PAGE_MAX = 50;
/** The older `GET /channels/{id}/pins` answers one unpaged list of at most this many, newest first. */
export const LEGACY_PINS_LIST_MAX = 50;

export interface PinsQuery {
  limit: number;
  /** ISO 8601 as slashd stores it (`toISOString`), so that it compares as text. */
  before: string | undefined;
}

/** The query of the paged pins list; a bad value is 50035 at its parameter's name. */
export function readPinsQuery(query: Readonly<Record<string, unknown>>): Result<PinsQuery> {
  const issues: Issue[] = [];
  const limit = readIntegerParam(
    query.limit,
    { name: 'limit', min: 1, max: PINS_PAGE_MAX, fallback: PINS_PAGE_MAX },
    issues,
  );
  const before = readBeforeTime(query.before, issues);
  return issues.length > 0 ? fail(issues) : ok({ limit, before });
}

function readBeforeTime(raw: unknown, issues: Issue[]): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const text = typeof raw === 'string' && raw.length <= 40 ? raw : '';
  const time = isIsoTimestamp(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(time)) {
    issues.push(issue(['before'], DATE_TIME_TYPE_PARSE, `Could not parse ${text}. Should be ISO8601.`));
    return undefined;
  }
  return new Date(time).toISOString();
}

/** CHANNEL_PINS_UPDATE: the channel and the time of its newest pin (null when none is left). */
export function channelPinsUpdateDispatch(guildId: string, channelId: string, lastPin: string | null): WorldDispatch {
  return {
    t: 'CHANNEL_PINS_UPDATE',
    guildId,
    channelId,
    recipientIds: [],
    d: {
      guild_id: guildId,
      channel_id: channelId,
      last_pin_timestamp: lastPin,
    } satisfies GatewayChannelPinsUpdateDispatchData,
  };
}
