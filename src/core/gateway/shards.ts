/** Sharding (v10): which shard a guild's events go to, and how many shards a bot should run. */
import { MAX_GUILDS_PER_SHARD, MAX_SHARDS, RECOMMENDED_GUILDS_PER_SHARD } from './protocol.js';

/** `(guild_id >> 22) % num_shards`; DMs (no guild) go to shard 0. */
export function shardOf(guildId: string | null, numShards: number): number {
  if (guildId === null || numShards <= 1) return 0;
  return Number((BigInt(guildId) >> 22n) % BigInt(numShards));
}

/** The `shards` of `/gateway/bot`: one per 1,000 guilds, at least one. */
export function recommendedShards(guildCount: number): number {
  return Math.max(1, Math.ceil(guildCount / RECOMMENDED_GUILDS_PER_SHARD));
}

/** IDENTIFY's `shard`, read: [id, count] with 0 <= id < count <= MAX_SHARDS; null when invalid. */
export function readShard(value: unknown): [number, number] | null {
  if (value === undefined || value === null) return [0, 1];
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [id, count] = value as unknown[];
  if (!Number.isInteger(id) || !Number.isInteger(count)) return null;
  const shardId = id as number;
  const shardCount = count as number;
  if (shardCount < 1 || shardCount > MAX_SHARDS || shardId < 0 || shardId >= shardCount) return null;
  return [shardId, shardCount];
}

/** True when one shard would hold more guilds than v10 allows (IDENTIFY closes with 4011). */
export function shardingRequired(
  guildIds: readonly string[],
  numShards: number,
  shardId: number,
  maxPerShard = MAX_GUILDS_PER_SHARD,
): boolean {
  let count = 0;
  for (const id of guildIds) if (shardOf(id, numShards) === shardId) count++;
  return count > maxPerShard;
}
