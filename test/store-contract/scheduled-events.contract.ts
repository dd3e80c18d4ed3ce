/**
 * The ScheduledEventStore contract: an event read back as written (its recurrence rule too), the
 * bound on events not ended counted per guild, edits compare-and-set on the status, due events
 * found by the clock, the cover image by event and hash, interested users once each, paged by id
 * (as snowflakes) and counted, and an event's users gone with it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ScheduledEvent } from '../../src/resources/scheduled-events/rules/event.js';
import type { ScheduledEventStore } from '../../src/resources/scheduled-events/store.js';
import { freshDatabasePerTest, type MakeStores } from './harness.js';
import { ALICE, BOB } from './fixtures.js';

const GUILD = '1800000000000000001';
const OTHER_GUILD = '1800000000000000002';
/** A user whose id is shorter than ALICE's: first by snowflake, last as text. */
const SHORT_ID_USER = '900000000000000001';

function event(id: string, extra: Partial<ScheduledEvent> = {}): ScheduledEvent {
  return {
    id,
    guild_id: GUILD,
    channel_id: null,
    creator_id: BOB,
    name: `event ${id}`,
    description: null,
    scheduled_start_time: 10_000,
    scheduled_end_time: 20_000,
    privacy_level: 2,
    status: 1,
    entity_type: 3,
    location: 'the roof',
    recurrence_rule: null,
    image: null,
    ...extra,
  };
}

export function describeScheduledEventStoreContract(name: string, make: MakeStores): void {
  describe(`${name}: ScheduledEventStore`, () => {
    const t = freshDatabasePerTest(make);
    const store = (): ScheduledEventStore => t.stores.scheduledEvents;

    it('reads an event back as written, lists a guild’s by id, and keeps guilds apart', async () => {
      const rule = {
        start: 10_000,
        frequency: 2,
        interval: 2,
        by_weekday: [3],
        by_n_weekday: null,
        by_month: null,
        by_month_day: null,
      };
      const first = event('1900000000000000010', { recurrence_rule: rule, description: 'cake' });
      const second = event('900000000000000011', { channel_id: '1800000000000000020', entity_type: 2, location: null });
      assert.equal(await store().createScheduledEvent(first, null, 100), 'created');
      assert.equal(await store().createScheduledEvent(second, null, 100), 'created');
      assert.equal(
        await store().createScheduledEvent(event('1900000000000000012', { guild_id: OTHER_GUILD }), null, 100),
        'created',
      );
      assert.deepEqual(await store().getScheduledEvent(GUILD, first.id), first);
      assert.equal(await store().getScheduledEvent(OTHER_GUILD, first.id), null);
      assert.deepEqual(
        (await store().listScheduledEvents(GUILD)).map((e) => e.id),
        [second.id, first.id],
      );
    });

    it('the bound counts events not ended in the guild; an ended one frees its place', async () => {
      assert.equal(await store().createScheduledEvent(event('1900000000000000020'), null, 2), 'created');
      assert.equal(await store().createScheduledEvent(event('1900000000000000021', { status: 2 }), null, 2), 'created');
      assert.equal(await store().createScheduledEvent(event('1900000000000000022'), null, 2), 'full');
      assert.equal(
        await store().createScheduledEvent(event('1900000000000000023', { guild_id: OTHER_GUILD }), null, 2),
        'created',
      );
      assert.ok(await store().updateScheduledEvent(event('1900000000000000020', { status: 4 }), 1, undefined));
      assert.equal(await store().createScheduledEvent(event('1900000000000000022'), null, 2), 'created');
    });

    it('an edit applies only while the status is the one read; due events by the clock', async () => {
      const external = event('1900000000000000030');
      await store().createScheduledEvent(external, null, 100);
      assert.deepEqual(await store().dueScheduledEvents(GUILD, 9_999), []);
      assert.deepEqual(
        (await store().dueScheduledEvents(GUILD, 10_000)).map((e) => e.id),
        [external.id],
      );
      assert.ok(await store().updateScheduledEvent({ ...external, status: 2 }, 1, undefined));
      assert.equal(
        await store().updateScheduledEvent({ ...external, status: 2, name: 'late' }, 1, undefined),
        false,
        'the status moved on',
      );
      assert.equal((await store().getScheduledEvent(GUILD, external.id))?.name, external.name);
      // Active: due again at its end, not before.
      assert.deepEqual(await store().dueScheduledEvents(GUILD, 19_999), []);
      assert.deepEqual(
        (await store().dueScheduledEvents(GUILD, 20_000)).map((e) => e.id),
        [external.id],
      );
      assert.ok(await store().updateScheduledEvent({ ...external, status: 3 }, 2, undefined));
      assert.deepEqual(await store().dueScheduledEvents(GUILD, 99_999), [], 'an ended event is never due');
    });

    it('a cover by event and hash; kept by an edit that leaves it, gone when removed', async () => {
      const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
      const covered = event('1900000000000000040', { image: 'a'.repeat(32) });
      await store().createScheduledEvent(covered, { contentType: 'image/png', bytes }, 100);
      assert.deepEqual(await store().getScheduledEventImage(covered.id, 'a'.repeat(32)), {
        contentType: 'image/png',
        bytes,
      });
      assert.equal(await store().getScheduledEventImage(covered.id, 'b'.repeat(32)), null);
      assert.ok(await store().updateScheduledEvent({ ...covered, name: 'renamed' }, 1, undefined));
      assert.ok(await store().getScheduledEventImage(covered.id, 'a'.repeat(32)));
      assert.ok(await store().updateScheduledEvent({ ...covered, image: null }, 1, null));
      assert.equal(await store().getScheduledEventImage(covered.id, 'a'.repeat(32)), null);
    });

    it('interested users: once each, paged by id, counted; deleted with their event', async () => {
      const meetup = event('1900000000000000050');
      await store().createScheduledEvent(meetup, null, 100);
      assert.equal(await store().addScheduledEventUser(GUILD, meetup.id, ALICE), true);
      assert.equal(await store().addScheduledEventUser(GUILD, meetup.id, ALICE), false);
      await store().addScheduledEventUser(GUILD, meetup.id, BOB);
      await store().addScheduledEventUser(GUILD, meetup.id, SHORT_ID_USER);
      const page = (p: Partial<{ before: string; after: string; limit: number }>) =>
        store().listScheduledEventUsers(GUILD, meetup.id, {
          before: p.before ?? null,
          after: p.after ?? null,
          limit: p.limit ?? 100,
        });
      const all = await page({});
      assert.equal(all[0], SHORT_ID_USER, 'the shorter id first');
      assert.deepEqual(await page({ after: all[0], limit: 1 }), [all[1]]);
      assert.deepEqual(await page({ before: all[2]! }), all.slice(0, 2));
      const counts = await store().countScheduledEventUsers(GUILD, [meetup.id, '1900000000000000099']);
      assert.deepEqual(
        [...counts.entries()],
        [
          [meetup.id, 3],
          ['1900000000000000099', 0],
        ],
      );
      assert.equal(await store().removeScheduledEventUser(GUILD, meetup.id, BOB), true);
      assert.equal(await store().removeScheduledEventUser(GUILD, meetup.id, BOB), false);
      assert.equal(await store().deleteScheduledEvent(GUILD, meetup.id), true);
      assert.equal(await store().deleteScheduledEvent(GUILD, meetup.id), false);
      assert.deepEqual(await page({}), []);
    });
  });
}
