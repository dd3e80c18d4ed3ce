/**
 * The audit log entries of a change of a guild's roles and channels (v10 audit log events 10-15
 * and 30-32), read off the guild before and after it: each role or channel created, changed or
 * deleted, and each overwrite of a channel that stays. A move alone (positions) records nothing.
 * Pure: the service gives the entries their ids and the store writes them with the change.
 */
import { AuditLogEvent } from 'discord-api-types/v10';
import type { AuditChange, AuditEntryInput } from '../../audit-log/rules.js';
import type { Channel, Guild, PermissionOverwrite, Role } from '../../../core/world/types.js';

type Keyed = Record<string, unknown>;

/** The fields of a role an entry names, as v10 names them. */
function roleFields(role: Role): Keyed {
  return {
    name: role.name,
    permissions: role.permissions,
    color: role.color ?? 0,
    hoist: role.hoist ?? false,
    mentionable: role.mentionable ?? false,
  };
}

/** The fields of a channel an entry names (its overwrites have entries of their own once it exists). */
function channelFields(channel: Channel): Keyed {
  return {
    name: channel.name,
    type: channel.type,
    topic: channel.topic ?? null,
    nsfw: channel.nsfw,
    rate_limit_per_user: channel.rate_limit_per_user ?? 0,
    parent_id: channel.parent_id,
  };
}

function overwriteFields(overwrite: PermissionOverwrite): Keyed {
  return { id: overwrite.id, type: overwrite.type, allow: overwrite.allow, deny: overwrite.deny };
}

/** The changes from `before` to `after` (either absent for a creation or a deletion). */
function changes(before: Keyed | null, after: Keyed | null): AuditChange[] {
  const keys = Object.keys(after ?? before ?? {});
  const out: Keyed[] = [];
  for (const key of keys) {
    const old = before?.[key];
    const now = after?.[key];
    if (before && after && JSON.stringify(old) === JSON.stringify(now)) continue;
    const change: Keyed = { key };
    if (before) change.old_value = old;
    if (after) change.new_value = now;
    out.push(change);
  }
  return out as unknown as AuditChange[];
}

/** Created, changed and deleted items of two lists by id, each with its entry. */
function diffById<T extends { id: string }>(
  before: readonly T[],
  after: readonly T[],
  fields: (item: T) => Keyed,
  entry: (event: 'create' | 'update' | 'delete', item: T, changes: AuditChange[]) => void,
): void {
  const old = new Map(before.map((item) => [item.id, item]));
  const now = new Map(after.map((item) => [item.id, item]));
  for (const [id, item] of now) {
    const previous = old.get(id);
    if (!previous) entry('create', item, changes(null, fields(item)));
    else {
      const changed = changes(fields(previous), fields(item));
      if (changed.length > 0) entry('update', item, changed);
    }
  }
  for (const [id, item] of old) if (!now.has(id)) entry('delete', item, changes(fields(item), null));
}

const ROLE_EVENTS = {
  create: AuditLogEvent.RoleCreate,
  update: AuditLogEvent.RoleUpdate,
  delete: AuditLogEvent.RoleDelete,
};
const CHANNEL_EVENTS = {
  create: AuditLogEvent.ChannelCreate,
  update: AuditLogEvent.ChannelUpdate,
  delete: AuditLogEvent.ChannelDelete,
};
const OVERWRITE_EVENTS = {
  create: AuditLogEvent.ChannelOverwriteCreate,
  update: AuditLogEvent.ChannelOverwriteUpdate,
  delete: AuditLogEvent.ChannelOverwriteDelete,
};

/** v10's `options` of an overwrite entry: whose overwrite it is, and a role's name. */
function overwriteOptions(guild: Guild, overwrite: PermissionOverwrite): Record<string, string> {
  const options: Record<string, string> = { id: overwrite.id, type: String(overwrite.type) };
  const role = overwrite.type === 0 ? guild.roles.find((r) => r.id === overwrite.id) : undefined;
  if (role) options.role_name = role.name;
  return options;
}

/** The entries of the change from `before` to `after`, made by `actorId` for `reason`. */
export function structureAuditInputs(
  before: Guild,
  after: Pick<Guild, 'roles' | 'channels'>,
  actorId: string,
  reason: string | null,
): AuditEntryInput[] {
  const inputs: AuditEntryInput[] = [];
  const base = { guild_id: before.id, user_id: actorId, reason };
  diffById(before.roles, after.roles, roleFields, (event, role, changed) =>
    inputs.push({ ...base, target_id: role.id, action_type: ROLE_EVENTS[event], changes: changed }),
  );
  diffById(before.channels, after.channels, channelFields, (event, channel, changed) => {
    const created =
      event === 'create' ? [{ key: 'permission_overwrites', new_value: channel.permission_overwrites }] : [];
    const all = [...changed, ...(created as unknown as AuditChange[])];
    inputs.push({ ...base, target_id: channel.id, action_type: CHANNEL_EVENTS[event], changes: all });
  });
  const kept = new Map(before.channels.map((c) => [c.id, c]));
  for (const channel of after.channels) {
    const previous = kept.get(channel.id);
    if (!previous) continue;
    diffById(previous.permission_overwrites, channel.permission_overwrites, overwriteFields, (event, o, changed) =>
      inputs.push({
        ...base,
        target_id: channel.id,
        action_type: OVERWRITE_EVENTS[event],
        changes: changed,
        options: overwriteOptions(before, o),
      }),
    );
  }
  return inputs;
}
