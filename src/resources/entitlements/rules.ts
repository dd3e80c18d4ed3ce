/**
 * The monetization sandbox's rules (docs/v10-behaviour.md#entitlements): an application's SKUs,
 * the entitlements its users and guilds hold to them, the bodies and queries of their routes, and
 * their v10 wire objects. Pure: the service reads and writes through the store.
 */
import {
  ButtonStyle,
  ComponentType,
  EntitlementOwnerType,
  EntitlementType,
  SKUFlags,
  SKUType,
  type APIEntitlement,
  type APISKU,
} from 'discord-api-types/v10';
import {
  BASE_TYPE_CHOICES,
  ENTITLEMENT_NOT_CONSUMABLE,
  NUMBER_TYPE_COERCE,
  PREMIUM_BUTTON_UNKNOWN_SKU,
} from '../../core/io/codes.js';
import { issue, type Issue, type IssuePath } from '../../core/io/issue.js';
import {
  fieldOf,
  isRecord,
  readInteger,
  readOptional,
  readRecord,
  readRequired,
  readSnowflake,
  readString,
} from '../../core/io/read.js';
import {
  reportBadLength,
  reportBelowMin,
  reportNotObject,
  reportNotOneOf,
  reportTooLong,
  type Issues,
} from '../../core/io/report.js';
import { fail, ok, type Result } from '../../core/io/result.js';
import { isSnowflake } from '../../core/snowflake.js';
import { readIntegerParam, readSnowflakeParam } from '../../core/world/page-query.js';

/** The most SKUs one application has (v10 sets none a bot can reach; the admin API is bounded). */
export const SKUS_PER_APPLICATION_MAX = 50;
/** The most entitlements one application holds, deleted ones included (every resource has a bound). */
export const ENTITLEMENTS_PER_APPLICATION_MAX = 10_000;
/** An entitlements page holds at most this many, and this many by default (v10: limit 1-100, default 100). */
export const ENTITLEMENTS_PAGE_MAX = 100;
/** `sku_ids` of the list names at most this many SKUs. */
export const ENTITLEMENT_QUERY_SKUS_MAX = 100;
/** The longest SKU name. */
export const SKU_NAME_MAX = 100;
/** The longest SKU slug. */
export const SKU_SLUG_MAX = 100;

/** The SKU types an application may sell (v10: durable, consumable, subscription, subscription group). */
export const SKU_TYPES: readonly number[] = [
  SKUType.Durable,
  SKUType.Consumable,
  SKUType.Subscription,
  SKUType.SubscriptionGroup,
];

export interface StoredSku {
  id: string;
  application_id: string;
  type: SKUType;
  name: string;
  slug: string;
  flags: number;
}

export interface StoredEntitlement {
  id: string;
  application_id: string;
  sku_id: string;
  /** The owner: a user (`user_id`) or a guild (`guild_id`), never both. */
  user_id: string | null;
  guild_id: string | null;
  type: EntitlementType;
  deleted: boolean;
  consumed: boolean;
  /** ISO 8601; null for one with no start (test entitlements). */
  starts_at: string | null;
  ends_at: string | null;
}

/** A test entitlement's request, read. */
export interface TestEntitlementRequest {
  skuId: string;
  ownerId: string;
  ownerType: EntitlementOwnerType;
}

/** `GET /applications/{id}/entitlements`'s query, read. */
export interface EntitlementsQuery {
  userId: string | undefined;
  guildId: string | undefined;
  skuIds: string[] | undefined;
  before: string | undefined;
  after: string | undefined;
  limit: number;
  excludeEnded: boolean;
  excludeDeleted: boolean;
}

/** The body of `POST /applications/{id}/entitlements`: `{sku_id, owner_id, owner_type}`. */
export function readTestEntitlementBody(body: unknown): Result<TestEntitlementRequest> {
  const issues: Issues = [];
  if (!isRecord(body)) {
    reportNotObject(issues, []);
    return fail(issues);
  }
  const skuId = readRequired(fieldOf(body, 'sku_id'), ['sku_id'], issues, readSnowflake);
  const ownerId = readRequired(fieldOf(body, 'owner_id'), ['owner_id'], issues, readSnowflake);
  const ownerType = readRequired(fieldOf(body, 'owner_type'), ['owner_type'], issues, readInteger);
  if (ownerType !== undefined && !OWNER_TYPES.includes(ownerType)) reportNotOneOf(issues, ['owner_type'], OWNER_TYPES);
  if (issues.length > 0 || skuId === undefined || ownerId === undefined) return fail(issues);
  return ok({ skuId, ownerId, ownerType: ownerType as EntitlementOwnerType });
}

/** The admin API's purchase body: `{sku_id, user_id}`. */
export function readPurchaseBody(body: unknown): Result<{ skuId: string; userId: string }> {
  const issues: Issues = [];
  if (!isRecord(body)) {
    reportNotObject(issues, []);
    return fail(issues);
  }
  const skuId = readRequired(fieldOf(body, 'sku_id'), ['sku_id'], issues, readSnowflake);
  const userId = readRequired(fieldOf(body, 'user_id'), ['user_id'], issues, readSnowflake);
  return skuId === undefined || userId === undefined ? fail(issues) : ok({ skuId, userId });
}

/** Who may own a test entitlement: a guild (1) or a user (2). */
const OWNER_TYPES: readonly number[] = [EntitlementOwnerType.Guild, EntitlementOwnerType.User];

/** The list's query: every filter v10 has; a bad value is 50035 at its parameter's name. */
export function readEntitlementsQuery(query: Readonly<Record<string, unknown>>): Result<EntitlementsQuery> {
  const issues: Issue[] = [];
  const value: EntitlementsQuery = {
    userId: readSnowflakeParam(query.user_id, 'user_id', issues),
    guildId: readSnowflakeParam(query.guild_id, 'guild_id', issues),
    skuIds: readSkuIds(query.sku_ids, issues),
    before: readSnowflakeParam(query.before, 'before', issues),
    after: readSnowflakeParam(query.after, 'after', issues),
    limit: readIntegerParam(
      query.limit,
      { name: 'limit', min: 1, max: ENTITLEMENTS_PAGE_MAX, fallback: ENTITLEMENTS_PAGE_MAX },
      issues,
    ),
    excludeEnded: readQueryBoolean(query.exclude_ended, 'exclude_ended', issues),
    excludeDeleted: readQueryBoolean(query.exclude_deleted, 'exclude_deleted', issues, true),
  };
  return issues.length > 0 ? fail(issues) : ok(value);
}

/** `sku_ids`: comma-separated snowflakes (discord.js joins them so). */
function readSkuIds(raw: unknown, issues: Issue[]): string[] | undefined {
  if (raw === undefined || raw === '') return undefined;
  const parts = (Array.isArray(raw) ? raw.join(',') : String(raw)).split(',').filter((part) => part !== '');
  if (parts.length > ENTITLEMENT_QUERY_SKUS_MAX || parts.some((part) => !isSnowflake(part))) {
    issues.push(issue(['sku_ids'], NUMBER_TYPE_COERCE, 'Value is not a list of snowflakes.'));
    return undefined;
  }
  return parts;
}

/** A query boolean as v10 reads one: true/false (and 1/0, as libraries send them). */
function readQueryBoolean(raw: unknown, name: string, issues: Issue[], fallback = false): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1' || raw === 'True') return true;
  if (raw === 'false' || raw === '0' || raw === 'False') return false;
  issues.push(issue([name], BASE_TYPE_CHOICES, 'Must be true or false.'));
  return fallback;
}

/** Whether the entitlement has ended at `nowMs` (one without an end never does). */
export function entitlementEnded(entitlement: StoredEntitlement, nowMs: number): boolean {
  return entitlement.ends_at !== null && Date.parse(entitlement.ends_at) <= nowMs;
}

/** Whether the entitlement grants its SKU now: not deleted, not consumed, not ended. */
export function entitlementActive(entitlement: StoredEntitlement, nowMs: number): boolean {
  return !entitlement.deleted && !entitlement.consumed && !entitlementEnded(entitlement, nowMs);
}

/**
 * The entitlements an interaction carries (v10's `entitlements`): the active ones among those of
 * its user and of its guild, oldest first.
 */
export function interactionEntitlements(owned: readonly StoredEntitlement[], nowMs: number): APIEntitlement[] {
  return owned
    .filter((entitlement) => entitlementActive(entitlement, nowMs))
    .sort((a, b) => a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map(toWireEntitlement);
}

/** Whether the list's filters keep the entitlement (the store pages; this decides the rest). */
export function matchesQuery(entitlement: StoredEntitlement, query: EntitlementsQuery, nowMs: number): boolean {
  if (query.userId !== undefined && entitlement.user_id !== query.userId) return false;
  if (query.guildId !== undefined && entitlement.guild_id !== query.guildId) return false;
  if (query.skuIds !== undefined && !query.skuIds.includes(entitlement.sku_id)) return false;
  if (query.excludeDeleted && entitlement.deleted) return false;
  if (query.excludeEnded && entitlementEnded(entitlement, nowMs)) return false;
  return true;
}

/** A new test entitlement (type 4, TestModePurchase): no start, no end, as v10 makes them. */
export function newTestEntitlement(
  id: string,
  applicationId: string,
  sku: StoredSku,
  request: TestEntitlementRequest,
): StoredEntitlement {
  const byUser = request.ownerType === EntitlementOwnerType.User;
  return {
    id,
    application_id: applicationId,
    sku_id: sku.id,
    user_id: byUser ? request.ownerId : null,
    guild_id: byUser ? null : request.ownerId,
    type: EntitlementType.TestModePurchase,
    deleted: false,
    consumed: false,
    starts_at: null,
    ends_at: null,
  };
}

/** The refusal of a consume whose SKU is not consumable: 50035 at `entitlement_id`. */
export function notConsumable(): Issue[] {
  return [issue(['entitlement_id'], ENTITLEMENT_NOT_CONSUMABLE, "The entitlement's SKU is not consumable.")];
}

/** v10's entitlement object (`user_id` or `guild_id` by its owner; `consumed` always). */
export function toWireEntitlement(entitlement: StoredEntitlement): APIEntitlement {
  return {
    id: entitlement.id,
    sku_id: entitlement.sku_id,
    application_id: entitlement.application_id,
    ...(entitlement.user_id !== null ? { user_id: entitlement.user_id } : {}),
    ...(entitlement.guild_id !== null ? { guild_id: entitlement.guild_id } : {}),
    type: entitlement.type,
    deleted: entitlement.deleted,
    starts_at: entitlement.starts_at,
    ends_at: entitlement.ends_at,
    consumed: entitlement.consumed,
  };
}

/** v10's SKU object. */
export function toWireSku(sku: StoredSku): APISKU {
  return {
    id: sku.id,
    type: sku.type,
    application_id: sku.application_id,
    name: sku.name,
    slug: sku.slug,
    flags: sku.flags,
  };
}

/** One SKU of the admin API's list, read: `{id, type, name, slug?, flags?}`. */
export function readSkuDefinition(
  value: unknown,
  path: IssuePath,
  applicationId: string,
  issues: Issues,
): StoredSku | undefined {
  const record = readRecord(value, path, issues);
  if (!record) return undefined;
  const before = issues.length;
  const id = readRequired(fieldOf(record, 'id'), [...path, 'id'], issues, readSnowflake);
  const type = readRequired(fieldOf(record, 'type'), [...path, 'type'], issues, readInteger);
  if (type !== undefined && !SKU_TYPES.includes(type)) reportNotOneOf(issues, [...path, 'type'], SKU_TYPES);
  const name = readRequired(fieldOf(record, 'name'), [...path, 'name'], issues, readString);
  if (name !== undefined && (name.length < 1 || name.length > SKU_NAME_MAX)) {
    reportBadLength(issues, [...path, 'name'], 1, SKU_NAME_MAX);
  }
  const slug = readOptional(fieldOf(record, 'slug'), [...path, 'slug'], issues, readString, slugOf(name ?? ''));
  if (slug.length > SKU_SLUG_MAX) reportTooLong(issues, [...path, 'slug'], SKU_SLUG_MAX);
  const flags = readOptional(fieldOf(record, 'flags'), [...path, 'flags'], issues, readInteger, defaultSkuFlags(type));
  if (flags < 0) reportBelowMin(issues, [...path, 'flags'], 0);
  if (issues.length > before || id === undefined || type === undefined || name === undefined) return undefined;
  return { id, application_id: applicationId, type, name, slug, flags };
}

/** A SKU is available; a subscription one is a user subscription unless its flags say otherwise. */
function defaultSkuFlags(type: number | undefined): number {
  return type === SKUType.Subscription ? SKUFlags.Available | SKUFlags.UserSubscription : SKUFlags.Available;
}

/** The slug v10 makes of a name: lower case, words joined by dashes. */
function slugOf(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, SKU_SLUG_MAX);
}

/**
 * The premium buttons (style 6) of a message's components whose `sku_id` is none of `skuIds` (the
 * SKUs of the message's application): 50035 at each `sku_id`, under `path` (where the body holds
 * the components). Rows, containers and sections are walked; their order is the body's.
 */
export function premiumButtonIssues(
  components: readonly unknown[],
  skuIds: ReadonlySet<string>,
  path: IssuePath,
): Issue[] {
  const issues: Issue[] = [];
  const walk = (component: unknown, at: IssuePath): void => {
    if (!isRecord(component)) return;
    if (component.type === ComponentType.Button && component.style === ButtonStyle.Premium) {
      const skuId = component.sku_id;
      if (typeof skuId === 'string' && !skuIds.has(skuId)) {
        issues.push(issue([...at, 'sku_id'], PREMIUM_BUTTON_UNKNOWN_SKU, `Unknown SKU ${skuId} for this application.`));
      }
    }
    if (Array.isArray(component.components)) {
      component.components.forEach((child, index) => walk(child, [...at, 'components', index]));
    }
    if (component.accessory !== undefined) walk(component.accessory, [...at, 'accessory']);
  };
  components.forEach((component, index) => walk(component, [...path, index]));
  return issues;
}

/** The premium buttons' SKU ids of a message's components (none: no SKU need be read). */
export function premiumButtonSkuIds(components: readonly unknown[]): string[] {
  const found: string[] = [];
  const walk = (component: unknown): void => {
    if (!isRecord(component)) return;
    if (component.type === ComponentType.Button && component.style === ButtonStyle.Premium) {
      if (typeof component.sku_id === 'string') found.push(component.sku_id);
    }
    if (Array.isArray(component.components)) component.components.forEach(walk);
    if (component.accessory !== undefined) walk(component.accessory);
  };
  components.forEach(walk);
  return found;
}
