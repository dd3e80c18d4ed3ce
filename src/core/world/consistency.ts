/**
 * Rules across a whole world: ids and secrets are unique, and references point at something.
 * Two apps with one bot token would let either log in as the other, so this is a safety check as
 * much as a tidiness one.
 */
import { WORLD_DUPLICATE, WORLD_UNKNOWN_REFERENCE } from '../io/codes.js';
import { issue, type Issue } from '../io/issue.js';
import type { Guild, World } from './types.js';

function checkUnique(issues: Issue[], values: string[], list: string, field: string, what: string): void {
  const seen = new Set<string>();
  values.forEach((value, index) => {
    if (seen.has(value))
      issues.push(issue([list, index, field], WORLD_DUPLICATE, `Another ${what} has this ${field} already`));
    seen.add(value);
  });
}

/** A guild's emojis: one id each, and only the guild's roles may use them. */
function checkGuildEmojis(issues: Issue[], guild: Guild, path: (string | number)[]): void {
  const roles = new Set(guild.roles.map((role) => role.id));
  const seen = new Set<string>();
  (guild.emojis ?? []).forEach((emoji, e) => {
    if (seen.has(emoji.id))
      issues.push(issue([...path, 'emojis', e, 'id'], WORLD_DUPLICATE, 'Another emoji has this id already'));
    seen.add(emoji.id);
    emoji.roles.forEach((role, r) => {
      if (!roles.has(role))
        issues.push(issue([...path, 'emojis', e, 'roles', r], WORLD_UNKNOWN_REFERENCE, `Unknown role: ${role}`));
    });
  });
}

export function checkWorldConsistency(world: World): Issue[] {
  const issues: Issue[] = [];
  checkUnique(
    issues,
    world.applications.map((a) => a.id),
    'applications',
    'id',
    'application',
  );
  checkUnique(
    issues,
    world.applications.map((a) => a.bot_token),
    'applications',
    'bot_token',
    'application',
  );
  checkUnique(
    issues,
    world.users.map((u) => u.id),
    'users',
    'id',
    'user',
  );
  checkUnique(
    issues,
    world.users.map((u) => u.token),
    'users',
    'token',
    'user',
  );
  checkUnique(
    issues,
    world.guilds.map((g) => g.id),
    'guilds',
    'id',
    'guild',
  );
  checkUnique(
    issues,
    world.oauth2_tokens.map((t) => t.access_token),
    'oauth2_tokens',
    'access_token',
    'token',
  );

  const users = new Set(world.users.map((u) => u.id));
  const apps = new Set(world.applications.map((a) => a.id));
  const unknown = (path: (string | number)[], kind: string, id: string) =>
    issues.push(issue(path, WORLD_UNKNOWN_REFERENCE, `Unknown ${kind}: ${id}`));

  world.applications.forEach((app, i) => {
    if (!users.has(app.owner_id)) unknown(['applications', i, 'owner_id'], 'user', app.owner_id);
  });
  world.guilds.forEach((guild, g) => {
    if (!users.has(guild.owner_id)) unknown(['guilds', g, 'owner_id'], 'user', guild.owner_id);
    guild.members.forEach((member, m) => {
      if (!users.has(member.user_id)) unknown(['guilds', g, 'members', m, 'user_id'], 'user', member.user_id);
    });
    guild.channels.forEach((channel, c) => {
      (channel.thread_member_ids ?? []).forEach((id, t) => {
        if (!users.has(id) && !apps.has(id)) unknown(['guilds', g, 'channels', c, 'thread_member_ids', t], 'user', id);
      });
    });
    checkGuildEmojis(issues, guild, ['guilds', g]);
    guild.installs.forEach((install, n) => {
      if (!apps.has(install.application_id))
        unknown(['guilds', g, 'installs', n, 'application_id'], 'application', install.application_id);
    });
  });
  const groupDms = world.group_dms ?? [];
  checkUnique(
    issues,
    groupDms.map((dm) => dm.id),
    'group_dms',
    'id',
    'group DM',
  );
  const guildChannels = new Set(world.guilds.flatMap((guild) => guild.channels.map((channel) => channel.id)));
  groupDms.forEach((dm, d) => {
    if (guildChannels.has(dm.id))
      issues.push(issue(['group_dms', d, 'id'], WORLD_DUPLICATE, 'A guild channel has this id already'));
    dm.recipients.forEach((id, r) => {
      if (!users.has(id)) unknown(['group_dms', d, 'recipients', r], 'user', id);
    });
  });
  world.oauth2_tokens.forEach((token, t) => {
    if (!apps.has(token.application_id))
      unknown(['oauth2_tokens', t, 'application_id'], 'application', token.application_id);
    if (token.user_id !== null && !users.has(token.user_id))
      unknown(['oauth2_tokens', t, 'user_id'], 'user', token.user_id);
  });
  return issues;
}
