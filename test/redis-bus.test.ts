/**
 * The event bus across nodes, on the real Redis: buses on one prefix see each other's events, each
 * subscriber once (the publisher's own included); a bus on another prefix, or on the same prefix in
 * another database, sees none of them.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { BusEvents } from '../src/events/bus.js';
import { RedisEventBus, type BusLagObserver } from '../src/events/redis-bus.js';
import type { RedisLink } from '../src/events/redis-link.js';
import { Inbox } from './helpers/inbox.js';
import { connectLink, deletePrefix, freshRedisPrefix, redisUrlWithDb } from './helpers/redis.js';

type Update = BusEvents['APPLICATION_COMMAND_PERMISSIONS_UPDATE'];

/** Where the buses of tests not about lag report it (the lag test gives its receiver its own). */
const reportedLags: { lag: number; dropped: boolean }[] = [];
const recordLag: BusLagObserver = { busReceived: (lag, dropped) => void reportedLags.push({ lag, dropped }) };

const links: RedisLink[] = [];
const prefixes: string[] = [];

async function link(prefix: string, url?: string): Promise<RedisLink> {
  const opened = await connectLink(prefix, url);
  links.push(opened);
  return opened;
}

function busOn(l: RedisLink, channelOf: RedisLink = l): Promise<RedisEventBus> {
  return RedisEventBus.open({
    publisher: l.commands,
    subscriber: l.subscriber,
    channel: channelOf.channel('bus'),
    lag: recordLag,
  });
}

function update(applicationId: string): Update {
  return { applicationId, data: { id: '1', application_id: applicationId, guild_id: '2', permissions: [] } };
}

function listen(bus: RedisEventBus): Inbox<Update> {
  const inbox = new Inbox<Update>((event) => event.applicationId);
  bus.subscribe('APPLICATION_COMMAND_PERMISSIONS_UPDATE', (event) => inbox.push(event));
  return inbox;
}

after(async () => {
  for (const l of links) await l.close();
  for (const prefix of prefixes) await deletePrefix(prefix);
});

describe('RedisEventBus', () => {
  test('two nodes on one prefix: each event reaches every subscriber exactly once', async () => {
    const prefix = freshRedisPrefix('bus');
    prefixes.push(prefix);
    const a = await busOn(await link(prefix));
    const b = await busOn(await link(prefix));
    const onA = listen(a);
    const onB = listen(b);
    a.publish('APPLICATION_COMMAND_PERMISSIONS_UPDATE', update('from-a-1'));
    b.publish('APPLICATION_COMMAND_PERMISSIONS_UPDATE', update('from-b'));
    a.publish('APPLICATION_COMMAND_PERMISSIONS_UPDATE', update('from-a-2'));
    // Dispatch events go through the log: every node, the publisher too, gets them in the log's
    // order. A marker published last from B ends the exchange: Redis delivers in order.
    await onB.find((e) => e.applicationId === 'from-a-2', "A's second event on B");
    b.publish('APPLICATION_COMMAND_PERMISSIONS_UPDATE', update('marker'));
    await onA.find((e) => e.applicationId === 'marker', "B's marker on A");
    await onB.find((e) => e.applicationId === 'marker', "B's marker on B");
    const order = onA.all().map((e) => e.applicationId);
    assert.deepEqual(
      onB.all().map((e) => e.applicationId),
      order,
      'both nodes in the log order',
    );
    assert.deepEqual([...order].sort(), ['from-a-1', 'from-a-2', 'from-b', 'marker']);
    assert.ok(order.indexOf('from-a-1') < order.indexOf('from-a-2'), "A's events in A's order");
    assert.deepEqual(
      onA.all().find((e) => e.applicationId === 'from-b'),
      update('from-b'),
      'the event arrives whole',
    );
  });

  test('a bus on another prefix sees none of them', async () => {
    const prefix = freshRedisPrefix('bus');
    const other = freshRedisPrefix('bus-other');
    prefixes.push(prefix, other);
    // Two prefixes over the same pair of connections: messages to both channels travel one socket
    // each way, in order, so the marker on this prefix arrives after anything on the other.
    const shared = await link(prefix);
    const sharedOther = await link(other);
    const sender = await busOn(shared);
    const senderOther = await RedisEventBus.open({
      publisher: shared.commands,
      subscriber: sharedOther.subscriber,
      channel: sharedOther.channel('bus'),
      lag: recordLag,
    });
    const receiverLink = await link(prefix);
    const receiver = await busOn(receiverLink);
    const receiverOther = await RedisEventBus.open({
      publisher: receiverLink.commands,
      subscriber: receiverLink.subscriber,
      channel: sharedOther.channel('bus'),
      lag: recordLag,
    });
    const onReceiver = listen(receiver);
    const onReceiverOther = listen(receiverOther);
    senderOther.publish('APPLICATION_COMMAND_PERMISSIONS_UPDATE', update('other-prefix'));
    sender.publish('APPLICATION_COMMAND_PERMISSIONS_UPDATE', update('this-prefix'));
    await onReceiver.find((e) => e.applicationId === 'this-prefix', 'the event of this prefix');
    // The other prefix's event was published first on the same connection, so it has arrived.
    assert.deepEqual(
      onReceiverOther.all().map((e) => e.applicationId),
      ['other-prefix'],
    );
    assert.deepEqual(
      onReceiver.all().map((e) => e.applicationId),
      ['this-prefix'],
    );
  });

  test('a bus on the same prefix in another database sees none of them (pub/sub ignores the index)', async () => {
    const prefix = freshRedisPrefix('bus-db');
    prefixes.push(prefix);
    const inDb0 = await link(prefix, redisUrlWithDb(0));
    const inDb1 = await link(prefix, redisUrlWithDb(1));
    assert.notEqual(inDb0.channel('bus'), inDb1.channel('bus'));
    const sender = await busOn(inDb1);
    // The receiver in database 0 also hears, on its one subscriber connection, a channel of
    // database 1: the marker sent there last arrives after anything sent before it.
    const receiver = await busOn(inDb0);
    // Its log is database 1's (where that channel's events are logged): positions are that log's.
    const marker = await RedisEventBus.open({
      publisher: inDb1.commands,
      subscriber: inDb0.subscriber,
      channel: inDb1.channel('bus'),
      lag: recordLag,
    });
    const onReceiver = listen(receiver);
    const onMarker = listen(marker);
    sender.publish('APPLICATION_COMMAND_PERMISSIONS_UPDATE', update('db1'));
    await onMarker.find((e) => e.applicationId === 'db1', "database 1's event on its own channel");
    assert.deepEqual(onReceiver.all(), [], "database 0's bus heard nothing of database 1's");
  });

  test("another node's events report their lag; an INTERACTION_CREATE past its deadline is dropped", async () => {
    const prefix = freshRedisPrefix('bus-lag');
    prefixes.push(prefix);
    const sent = await link(prefix);
    const received = await link(prefix);
    // The publisher's clock is 10 s behind: every event it sends looks 10 s late on arrival.
    const late = await RedisEventBus.open({
      publisher: sent.commands,
      subscriber: sent.subscriber,
      channel: sent.channel('bus'),
      now: () => Date.now() - 10_000,
      lag: recordLag,
    });
    const lags: { lag: number; dropped: boolean }[] = [];
    const receiver = await RedisEventBus.open({
      publisher: received.commands,
      subscriber: received.subscriber,
      channel: received.channel('bus'),
      lag: { busReceived: (lag, dropped) => void lags.push({ lag, dropped }) },
    });
    const interactions: string[] = [];
    receiver.subscribe('INTERACTION_CREATE', (event) => void interactions.push(event.applicationId));
    const onReceiver = listen(receiver);
    late.publish('INTERACTION_CREATE', { applicationId: 'stale', data: {} });
    late.publish('APPLICATION_COMMAND_PERMISSIONS_UPDATE', update('kept'));
    await onReceiver.find((e) => e.applicationId === 'kept', 'the late permissions update, delivered all the same');
    assert.deepEqual(interactions, [], 'the interaction past its 3 s deadline was dropped');
    assert.deepEqual(
      lags.map((l) => l.dropped),
      [true, false],
    );
    for (const { lag } of lags) assert.ok(lag >= 10, `lag ${lag} s`);
  });

  test('a message that is not an envelope of a known event is ignored', async () => {
    const prefix = freshRedisPrefix('bus');
    prefixes.push(prefix);
    const l = await link(prefix);
    const bus = await busOn(l);
    const inbox = listen(bus);
    const channel = l.channel('bus');
    await l.commands.publish(channel, 'not json');
    await l.commands.publish(channel, JSON.stringify({ p: '99999999999999-0', o: 'x', n: 'toString', e: {} }));
    await l.commands.publish(channel, JSON.stringify({ o: 'x', n: 'toString', e: {} }));
    await l.commands.publish(channel, JSON.stringify({ o: 'x', n: 'INTERACTION_CREATE', e: { ['__proto__']: {} } }));
    await l.commands.publish(
      channel,
      JSON.stringify({ o: 'x', ...{ n: 'APPLICATION_COMMAND_PERMISSIONS_UPDATE' }, e: update('ok') }),
    );
    await inbox.find((e) => e.applicationId === 'ok', 'the valid envelope');
    assert.equal(inbox.all().length, 1);
  });

  test("a logged event's message is the envelope an earlier version's node reads, its log position as p", async () => {
    const prefix = freshRedisPrefix('bus-compat');
    prefixes.push(prefix);
    const l = await link(prefix);
    const bus = await busOn(l);
    const raw = await link(prefix);
    const texts: string[] = [];
    raw.subscriber.on('message', (channel: string, text: string) => {
      if (channel === l.channel('bus')) texts.push(text);
    });
    await raw.subscriber.subscribe(l.channel('bus'));
    const inbox = listen(bus);
    bus.publish('APPLICATION_COMMAND_PERMISSIONS_UPDATE', update('logged'));
    await inbox.find((e) => e.applicationId === 'logged', 'the event, back from the log');
    await raw.commands.ping();
    await raw.subscriber.ping();
    assert.equal(texts.length, 1);
    const envelope = JSON.parse(texts[0]!) as { p: string; o: string; n: string; e: Update };
    assert.match(envelope.p, /^\d+-\d+$/);
    assert.equal(envelope.n, 'APPLICATION_COMMAND_PERMISSIONS_UPDATE');
    assert.deepEqual(envelope.e, update('logged'));
    const kept = await l.commands.xrange(`${l.channel('bus')}:log`, envelope.p, envelope.p);
    assert.equal(kept[0]?.[0], envelope.p, 'kept in the log at that position');
  });
});
