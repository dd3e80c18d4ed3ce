/**
 * Right after READY a session is sent its guilds' GUILD_CREATEs, which take store reads to build:
 * a world dispatch about a guild that arrives meanwhile is held and sent after that guild's
 * GUILD_CREATE, so a client (and a RESUME's replay) never hears of a change before the guild.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InMemoryResumeBuffer } from '../src/gateway/resume-buffer.js';
import { Session } from '../src/gateway/session.js';

function recordingSession(): { session: Session; sent: string[] } {
  const sent: string[] = [];
  const session = new Session(
    { id: 'session', applicationId: 'app', intents: 1, shardId: 0, numShards: 1, largeThreshold: 50 },
    new InMemoryResumeBuffer(),
  );
  session.socket = { sendDispatch: (t, s, json) => sent.push(`${s} ${t} ${json}`) };
  return { session, sent };
}

describe('gateway session: dispatches about a guild wait for its GUILD_CREATE', () => {
  test('held for a guild not yet sent, passed through for others and for DMs, in order once released', () => {
    const { session, sent } = recordingSession();
    session.holdGuilds(['g1', 'g2']);
    session.dispatchAbout('g1', 'GUILD_ROLE_UPDATE', { n: 1 });
    session.dispatchAbout('g3', 'GUILD_UPDATE', { n: 2 });
    session.dispatchAbout(null, 'CHANNEL_CREATE', { n: 3 });
    session.dispatchAbout('g1', 'GUILD_ROLE_UPDATE', { n: 4 });
    session.dispatch('GUILD_CREATE', { id: 'g1' });
    session.release('g1');
    session.dispatchAbout('g1', 'GUILD_UPDATE', { n: 5 });
    assert.deepEqual(sent, [
      '1 GUILD_UPDATE {"n":2}',
      '2 CHANNEL_CREATE {"n":3}',
      '3 GUILD_CREATE {"id":"g1"}',
      '4 GUILD_ROLE_UPDATE {"n":1}',
      '5 GUILD_ROLE_UPDATE {"n":4}',
      '6 GUILD_UPDATE {"n":5}',
    ]);
  });

  test('releasing everything (a GUILD_CREATE that failed) sends what was held, and holds nothing after', async () => {
    const buffer = new InMemoryResumeBuffer();
    const session = new Session(
      { id: 'session', applicationId: 'app', intents: 1, shardId: 0, numShards: 1, largeThreshold: 50 },
      buffer,
    );
    session.holdGuilds(['g1']);
    session.dispatchAbout('g1', 'GUILD_ROLE_UPDATE', { n: 1 });
    assert.equal(session.seq, 0);
    session.release();
    session.dispatchAbout('g1', 'GUILD_ROLE_UPDATE', { n: 2 });
    assert.equal(session.seq, 2);
    // What a RESUME would replay is in the same order.
    const kept = await buffer.since('session', 0);
    assert.deepEqual(
      kept?.map((d) => d.json),
      ['{"n":1}', '{"n":2}'],
    );
  });
});
