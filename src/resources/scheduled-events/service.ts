/**
 * A guild's scheduled events (docs/v10-behaviour.md#scheduled-events): bots create, edit and delete
 * them (CREATE_EVENTS for their own, MANAGE_EVENTS for anyone's), members and bots read those they
 * can see (an event in a channel they cannot view is not there for them), users mark themselves
 * interested. The clock moves statuses (an external event starts and ends by its times): every
 * read or write of a guild's events first settles those that are due, once, whichever node does it.
 */
import { AuditLogEvent } from 'discord-api-types/v10';
import { apiError, invalidFormBody } from '../../core/io/errors.js';
import { refuse } from '../../core/refusals.js';
import type { SnowflakeGenerator } from '../../core/snowflake.js';
import { memberOf } from '../../core/world/member-index.js';
import type { Guild } from '../../core/world/types.js';
import { toWireGuildMember } from '../../core/world/v10-objects.js';
import { viewerId, type Viewer } from '../../core/world/viewer.js';
import type { WorldEvents } from '../../events/world-events.js';
import type { AuditLog } from '../audit-log/service.js';
import { wirePublicUserOrBot } from '../users/wire-users.js';
import { visibleGuild, type WorldReadStore } from '../world/reads.js';
import { readCreateBody, readEditBody } from './rules/body.js';
import { eventDispatch, eventUserDispatch } from './rules/dispatches.js';
import {
  GUILD_SCHEDULED_EVENTS_MAX,
  createEvent,
  editEvent,
  eventWriteRefusal,
  isFinished,
  statusAt,
  toWireEvent,
  viewerSeesEvent,
  type ScheduledEvent,
  type WireEvent,
} from './rules/event.js';
import type { EventUsersPage, ScheduledEventStore, StoredImage } from './store.js';

export interface ScheduledEventsDeps {
  world: WorldReadStore['world'];
  members: WorldReadStore['members'];
  events: ScheduledEventStore;
  bus: WorldEvents;
  auditLog: AuditLog;
  ids: Pick<SnowflakeGenerator, 'next'>;
  now: () => number;
}

/** What a read of events adds: the creator's user object, the count of interested users. */
export interface EventReadOptions {
  withUserCount: boolean;
}

export interface EventUser {
  guild_scheduled_event_id: string;
  user: Record<string, unknown>;
  member?: Record<string, unknown>;
}

export class ScheduledEventsService {
  constructor(private readonly deps: ScheduledEventsDeps) {}

  /** `GET /guilds/{g}/scheduled-events`: those the viewer sees, ascending by id. */
  async list(viewer: Viewer, guildId: string, options: EventReadOptions): Promise<WireEvent[]> {
    const guild = await visibleGuild(this.deps, viewer, guildId);
    await this.settle(guild.id);
    const events = (await this.deps.events.listScheduledEvents(guild.id)).filter((e) =>
      viewerSeesEvent(guild, viewer, e),
    );
    return this.wireAll(guild, events, options);
  }

  async get(viewer: Viewer, guildId: string, eventId: string, options: EventReadOptions): Promise<WireEvent> {
    const { guild, event } = await this.visibleEvent(viewer, guildId, eventId);
    const [wire] = await this.wireAll(guild, [event], options);
    return wire!;
  }

  async create(viewer: Viewer, guildId: string, body: unknown, reason: string | null): Promise<WireEvent> {
    const fields = readCreateBody(body);
    if (!fields.ok) throw invalidFormBody(fields.issues);
    const guild = await visibleGuild(this.deps, viewer, guildId);
    const actorId = viewerId(viewer);
    const created = createEvent(
      fields.value,
      { id: this.deps.ids.next(), guildId: guild.id, creatorId: actorId },
      guild,
      this.deps.now(),
    );
    if (!created.ok) throw invalidFormBody(created.issues);
    const event = created.value;
    const refusal = eventWriteRefusal(guild, viewer, event, actorId, false);
    if (refusal) refuse(refusal);
    const image = fields.value.image ? storedImage(fields.value.image) : null;
    const outcome = await this.deps.events.createScheduledEvent(event, image, GUILD_SCHEDULED_EVENTS_MAX);
    if (outcome === 'full') throw apiError('MaxScheduledEvents', { params: { limit: GUILD_SCHEDULED_EVENTS_MAX } });
    const [wire] = await this.wireAll(guild, [event], { withUserCount: false });
    this.deps.bus.publishAll([eventDispatch('GUILD_SCHEDULED_EVENT_CREATE', wire!)]);
    await this.audit(guild.id, actorId, event.id, AuditLogEvent.GuildScheduledEventCreate, reason);
    return wire!;
  }

  async edit(
    viewer: Viewer,
    guildId: string,
    eventId: string,
    body: unknown,
    reason: string | null,
  ): Promise<WireEvent> {
    const fields = readEditBody(body);
    if (!fields.ok) throw invalidFormBody(fields.issues);
    const { guild, event } = await this.visibleEvent(viewer, guildId, eventId);
    const actorId = viewerId(viewer);
    const refusal = eventWriteRefusal(guild, viewer, event, actorId, true);
    if (refusal) refuse(refusal);
    if (isFinished(event)) throw apiError('CannotUpdateFinishedEvent');
    const edited = editEvent(event, fields.value, guild, this.deps.now());
    if (!edited.ok) throw invalidFormBody(edited.issues);
    // Where the event moves to asks the same of the bot as where it was.
    const movedRefusal = eventWriteRefusal(guild, viewer, edited.value, actorId, true);
    if (movedRefusal) refuse(movedRefusal);
    const image = fields.value.image === undefined ? undefined : fields.value.image && storedImage(fields.value.image);
    if (!(await this.deps.events.updateScheduledEvent(edited.value, event.status, image))) {
      throw apiError('UnknownScheduledEvent');
    }
    const [wire] = await this.wireAll(guild, [edited.value], { withUserCount: false });
    this.deps.bus.publishAll([eventDispatch('GUILD_SCHEDULED_EVENT_UPDATE', wire!)]);
    await this.audit(guild.id, actorId, event.id, AuditLogEvent.GuildScheduledEventUpdate, reason);
    return wire!;
  }

  async delete(viewer: Viewer, guildId: string, eventId: string, reason: string | null): Promise<void> {
    const { guild, event } = await this.visibleEvent(viewer, guildId, eventId);
    const actorId = viewerId(viewer);
    const refusal = eventWriteRefusal(guild, viewer, event, actorId, true);
    if (refusal) refuse(refusal);
    if (!(await this.deps.events.deleteScheduledEvent(guild.id, event.id))) throw apiError('UnknownScheduledEvent');
    const [wire] = await this.wireAll(guild, [event], { withUserCount: false });
    this.deps.bus.publishAll([eventDispatch('GUILD_SCHEDULED_EVENT_DELETE', wire!)]);
    await this.audit(guild.id, actorId, event.id, AuditLogEvent.GuildScheduledEventDelete, reason);
  }

  /** A user marks themselves interested (true) or not; an ended event takes no one new. */
  async setInterested(userId: string, guildId: string, eventId: string, interested: boolean): Promise<void> {
    const viewer: Viewer = { kind: 'user', userId };
    const { event } = await this.visibleEvent(viewer, guildId, eventId);
    if (interested && isFinished(event)) throw apiError('CannotUpdateFinishedEvent');
    const changed = interested
      ? await this.deps.events.addScheduledEventUser(event.guild_id, event.id, userId)
      : await this.deps.events.removeScheduledEventUser(event.guild_id, event.id, userId);
    if (changed) this.deps.bus.publishAll([eventUserDispatch(interested, event, userId)]);
  }

  /** `GET .../users`: the interested users (and their members, `with_member`), ascending by id. */
  async users(
    viewer: Viewer,
    guildId: string,
    eventId: string,
    page: EventUsersPage,
    withMember: boolean,
  ): Promise<EventUser[]> {
    const { event } = await this.visibleEvent(viewer, guildId, eventId);
    const userIds = await this.deps.events.listScheduledEventUsers(event.guild_id, event.id, page);
    const guild = withMember ? await visibleGuild(this.deps, viewer, guildId, userIds) : null;
    const listed: EventUser[] = [];
    for (const userId of userIds) {
      const user = await wirePublicUserOrBot(this.deps.world, userId);
      if (!user) continue;
      const member = guild ? memberOf(guild, userId) : undefined;
      const wireMember =
        guild && member ? toWireGuildMember(guild, { member, user: undefined, bot: undefined }) : undefined;
      if (wireMember) delete (wireMember as Record<string, unknown>).user;
      listed.push({ guild_scheduled_event_id: event.id, user, ...(wireMember ? { member: wireMember } : {}) });
    }
    return listed;
  }

  /** The cover image of an event, by its hash (the CDN path's); null when there is none. */
  async image(eventId: string, hash: string): Promise<StoredImage | null> {
    return this.deps.events.getScheduledEventImage(eventId, hash);
  }

  /**
   * Applies the clock's due status changes to the guild's events: each compare-and-set on the
   * status read, so a change two readers race on is written and announced once.
   */
  private async settle(guildId: string): Promise<void> {
    const now = this.deps.now();
    for (const event of await this.deps.events.dueScheduledEvents(guildId, now)) {
      const status = statusAt(event, now);
      if (status === event.status) continue;
      const next: ScheduledEvent = { ...event, status };
      if (!(await this.deps.events.updateScheduledEvent(next, event.status, undefined))) continue;
      this.deps.bus.publishAll([eventDispatch('GUILD_SCHEDULED_EVENT_UPDATE', toWireEvent(next))]);
    }
  }

  private async visibleEvent(
    viewer: Viewer,
    guildId: string,
    eventId: string,
  ): Promise<{ guild: Guild; event: ScheduledEvent }> {
    const guild = await visibleGuild(this.deps, viewer, guildId);
    await this.settle(guild.id);
    const event = await this.deps.events.getScheduledEvent(guild.id, eventId);
    if (!event || !viewerSeesEvent(guild, viewer, event)) throw apiError('UnknownScheduledEvent');
    return { guild, event };
  }

  private async wireAll(
    guild: Guild,
    events: readonly ScheduledEvent[],
    options: EventReadOptions,
  ): Promise<WireEvent[]> {
    const counts = options.withUserCount
      ? await this.deps.events.countScheduledEventUsers(
          guild.id,
          events.map((e) => e.id),
        )
      : null;
    const wired: WireEvent[] = [];
    for (const event of events) {
      const creator = await wirePublicUserOrBot(this.deps.world, event.creator_id);
      wired.push(toWireEvent(event, { creator, ...(counts ? { userCount: counts.get(event.id) ?? 0 } : {}) }));
    }
    return wired;
  }

  private async audit(guildId: string, actorId: string, eventId: string, action: AuditLogEvent, reason: string | null) {
    await this.deps.auditLog.record({
      guild_id: guildId,
      user_id: actorId,
      target_id: eventId,
      action_type: action,
      reason,
    });
  }
}

function storedImage(image: { contentType: string; bytes: Buffer }): StoredImage {
  return { contentType: image.contentType, bytes: image.bytes };
}
