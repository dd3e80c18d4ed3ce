/**
 * A guild's roles for bots (v10 Guild Role endpoints): read one, create, edit, move and delete,
 * each checked by the core's rules (core/guild-structure/roles.ts) on the guild as stored, written
 * in one transaction (a deleted role leaves every member that had it), and told to the guild's bots.
 * Members see a change at once: their permissions and their command picker are computed from the
 * guild each read hands out, and every read after the write gets the new one.
 */
import type {
  RESTGetAPIGuildRoleResult,
  RESTPatchAPIGuildRolePositionsResult,
  RESTPatchAPIGuildRoleResult,
  RESTPostAPIGuildRoleResult,
} from 'discord-api-types/v10';
import { invalidFormBody } from '../../core/io/errors.js';
import { readMoves } from '../guild-structure/rules/reorder.js';
import { createRole, deleteRole, editRole, findRole, readRoleBody, reorderRoles } from './rules.js';
import type { SnowflakeGenerator } from '../../core/snowflake.js';
import { toWireRole, toWireRoles } from '../../core/world/v10-objects.js';
import type { Viewer } from '../../core/world/viewer.js';
import type { GuildStructureWrites } from '../guild-structure/writes.js';
import { visibleGuild, type WorldReadStore } from '../world/reads.js';

export interface RolesServiceDeps {
  world: WorldReadStore['world'];
  members: WorldReadStore['members'];
  writes: GuildStructureWrites;
  ids: Pick<SnowflakeGenerator, 'next'>;
}

export class RolesService {
  constructor(private readonly deps: RolesServiceDeps) {}

  async get(viewer: Viewer, guildId: string, roleId: string): Promise<RESTGetAPIGuildRoleResult> {
    const guild = await visibleGuild(this.deps, viewer, guildId);
    return toWireRole(guild, findRole(guild, roleId));
  }

  async create(
    applicationId: string,
    guildId: string,
    body: unknown,
    reason: string | null = null,
  ): Promise<RESTPostAPIGuildRoleResult> {
    const fields = readRoleBody(body);
    if (!fields.ok) throw invalidFormBody(fields.issues);
    const id = this.deps.ids.next();
    const { after } = await this.deps.writes.change(applicationId, guildId, reason, (guild, actor) => ({
      structure: { roles: createRole(guild, actor, id, fields.value), channels: guild.channels },
      result: null,
    }));
    return toWireRole(after, findRole(after, id));
  }

  async edit(
    applicationId: string,
    guildId: string,
    roleId: string,
    body: unknown,
    reason: string | null = null,
  ): Promise<RESTPatchAPIGuildRoleResult> {
    const fields = readRoleBody(body);
    if (!fields.ok) throw invalidFormBody(fields.issues);
    const { after } = await this.deps.writes.change(applicationId, guildId, reason, (guild, actor) => ({
      structure: { roles: editRole(guild, actor, roleId, fields.value), channels: guild.channels },
      result: null,
    }));
    return toWireRole(after, findRole(after, roleId));
  }

  async delete(applicationId: string, guildId: string, roleId: string, reason: string | null = null): Promise<void> {
    await this.deps.writes.change(applicationId, guildId, reason, (guild, actor) => ({
      structure: deleteRole(guild, actor, roleId),
      result: null,
    }));
  }

  /** `PATCH /guilds/{g}/roles`: every role of the guild, in its new order. */
  async reorder(
    applicationId: string,
    guildId: string,
    body: unknown,
    reason: string | null = null,
  ): Promise<RESTPatchAPIGuildRolePositionsResult> {
    const moves = readMoves(body, false);
    if (!moves.ok) throw invalidFormBody(moves.issues);
    const { after } = await this.deps.writes.change(applicationId, guildId, reason, (guild, actor) => ({
      structure: { roles: reorderRoles(guild, actor, moves.value), channels: guild.channels },
      result: null,
    }));
    return toWireRoles(after);
  }
}
