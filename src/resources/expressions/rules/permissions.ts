/**
 * Who may make and change a guild's expressions (v10): CREATE_GUILD_EXPRESSIONS makes one and
 * changes or deletes one's own; MANAGE_GUILD_EXPRESSIONS changes or deletes any. Either shows an
 * expression's creator (`user`).
 */
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { apiError } from '../../../core/io/errors.js';
import { hasAll } from '../../../core/permissions/bits.js';
import type { StructureActor } from '../../guild-structure/rules/actor.js';

const CREATE = PermissionFlagsBits.CreateGuildExpressions;
const MANAGE = PermissionFlagsBits.ManageGuildExpressions;

/** 50013 unless the actor may make an emoji or a sticker. */
export function requireCreate(actor: StructureActor): void {
  if (!hasAll(actor.bits, CREATE)) throw apiError('MissingPermissions');
}

/** 50013 unless the actor may change or delete the expression made by `creatorId`. */
export function requireManage(actor: StructureActor, creatorId: string | undefined): void {
  if (hasAll(actor.bits, MANAGE)) return;
  if (creatorId === actor.id && hasAll(actor.bits, CREATE)) return;
  throw apiError('MissingPermissions');
}

/** Whether guild-level permissions `bits` show who made each expression. */
export function seesCreators(bits: bigint): boolean {
  return hasAll(bits, MANAGE) || hasAll(bits, CREATE);
}
