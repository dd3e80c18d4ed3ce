/**
 * A guild's channels for bots (v10 Channel endpoints): create, edit, move and delete, and their
 * permission overwrites, each checked by the core's rules (core/guild-structure/channels.ts) on the
 * guild as stored, written in one transaction (a deleted channel takes its messages, pins, reactions
 * and files), and told to the guild's bots. Every access check and command picker after the write
 * reads the new overwrites: each is computed from the guild a read hands out.
 */
import { invalidFormBody } from '../../core/io/errors.js';
import { isRecord } from '../../core/io/read.js';
import { reportNotObject } from '../../core/io/report.js';
import { readChannelBody, readOverwriteFields } from './rules/channel-bodies.js';
import {
  createChannel,
  deleteChannel,
  deleteOverwrite,
  editChannel,
  findGuildChannel,
  putOverwrite,
  reorderChannels,
} from './rules/channels.js';
import { readMoves } from '../guild-structure/rules/reorder.js';
import type { Issues } from '../../core/io/report.js';
import type { SnowflakeGenerator } from '../../core/snowflake.js';
import { toWireChannel, type WireChannel } from '../../core/world/v10-objects.js';
import type { GuildStructureWrites } from '../guild-structure/writes.js';

export interface GuildChannelsServiceDeps {
  writes: GuildStructureWrites;
  ids: Pick<SnowflakeGenerator, 'next'>;
}

export class GuildChannelsService {
  constructor(private readonly deps: GuildChannelsServiceDeps) {}

  async create(
    applicationId: string,
    guildId: string,
    body: unknown,
    reason: string | null = null,
  ): Promise<WireChannel> {
    const fields = readChannelBody(body, null);
    if (!fields.ok) throw invalidFormBody(fields.issues);
    const id = this.deps.ids.next();
    const { after, counters } = await this.deps.writes.change(applicationId, guildId, reason, (guild, actor) => ({
      structure: { roles: guild.roles, channels: createChannel(guild, actor, id, fields.value) },
      result: null,
    }));
    return toWireChannel(after, findGuildChannel(after, id), counters);
  }

  async edit(
    applicationId: string,
    channelId: string,
    body: unknown,
    reason: string | null = null,
  ): Promise<WireChannel> {
    const guildId = await this.deps.writes.guildIdOfChannel(channelId);
    const { after, counters } = await this.deps.writes.change(applicationId, guildId, reason, (guild, actor) => {
      // The body is read against the channel as stored: its type bounds the topic.
      const channel = findGuildChannel(guild, channelId);
      const fields = readChannelBody(body, { currentType: channel.type });
      if (!fields.ok) throw invalidFormBody(fields.issues);
      return {
        structure: { roles: guild.roles, channels: editChannel(guild, actor, channelId, fields.value) },
        result: null,
      };
    });
    return toWireChannel(after, findGuildChannel(after, channelId), counters);
  }

  /** The channel as it was (v10 answers a delete with the deleted channel). */
  async delete(applicationId: string, channelId: string, reason: string | null = null): Promise<WireChannel> {
    const guildId = await this.deps.writes.guildIdOfChannel(channelId);
    const { result, counters } = await this.deps.writes.change(applicationId, guildId, reason, (guild, actor) => ({
      structure: { roles: guild.roles, channels: deleteChannel(guild, actor, channelId) },
      result: { guild, channel: findGuildChannel(guild, channelId) },
    }));
    return toWireChannel(result.guild, result.channel, counters);
  }

  async reorder(applicationId: string, guildId: string, body: unknown, reason: string | null = null): Promise<void> {
    const moves = readMoves(body, true);
    if (!moves.ok) throw invalidFormBody(moves.issues);
    await this.deps.writes.change(applicationId, guildId, reason, (guild, actor) => ({
      structure: { roles: guild.roles, channels: reorderChannels(guild, actor, moves.value) },
      result: null,
    }));
  }

  async putOverwrite(
    applicationId: string,
    channelId: string,
    overwriteId: string,
    body: unknown,
    reason: string | null = null,
  ): Promise<void> {
    const issues: Issues = [];
    const fields = isRecord(body) ? readOverwriteFields(body, [], issues) : reportNotObject(issues, []);
    if (!fields) throw invalidFormBody(issues);
    const guildId = await this.deps.writes.guildIdOfChannel(channelId);
    await this.deps.writes.change(applicationId, guildId, reason, (guild, actor) => ({
      structure: {
        roles: guild.roles,
        channels: putOverwrite(guild, actor, channelId, { id: overwriteId, ...fields }),
      },
      result: null,
    }));
  }

  async deleteOverwrite(
    applicationId: string,
    channelId: string,
    overwriteId: string,
    reason: string | null = null,
  ): Promise<void> {
    const guildId = await this.deps.writes.guildIdOfChannel(channelId);
    await this.deps.writes.change(applicationId, guildId, reason, (guild, actor) => ({
      structure: { roles: guild.roles, channels: deleteOverwrite(guild, actor, channelId, overwriteId) },
      result: null,
    }));
  }
}
