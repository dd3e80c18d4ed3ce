/**
 * A node on the real Redis shows Redis's health in /metrics: `slashd_redis_up` while its command
 * connection is ready, and the writes Redis refused (bus publishes other nodes missed), which its
 * connection errors alone would never tell.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { createSlashd, type Slashd } from '../src/app.js';
import { parseExposition, sampleValue, type Exposition } from './helpers/prometheus.js';
import { deletePrefix, freshRedisPrefix, redisUrl } from './helpers/redis.js';

/** Safety net of the condition wait below: a wait that never ends fails instead of hanging. */
const WAIT_TRIES = 500;

const prefix = freshRedisPrefix('metrics');
let node: Slashd | undefined;

after(async () => {
  await node?.close();
  await deletePrefix(prefix);
});

async function scrape(slashd: Slashd): Promise<Exposition> {
  return parseExposition(await slashd.metrics.registry.metrics());
}

describe('Redis in /metrics', () => {
  test('redis_up is 1 while the link is ready; a refused publish is counted and redis_up drops to 0', async () => {
    node = await createSlashd({ db: ':memory:', redisUrl, redisPrefix: prefix, logLevel: 'silent' });
    const ready = await scrape(node);
    assert.equal(ready.types.get('slashd_redis_up'), 'gauge');
    assert.equal(ready.types.get('slashd_redis_failed_writes_total'), 'counter');
    assert.equal(sampleValue(ready, 'slashd_redis_up'), 1);
    assert.equal(sampleValue(ready, 'slashd_redis_failed_writes_total', { write: 'bus_publish' }), 0);
    assert.equal(sampleValue(ready, 'slashd_redis_failed_writes_total', { write: 'resume_append' }), 0);

    // The command connection gone (and not coming back), a publish is refused.
    node.redis!.commands.disconnect();
    node.bus.publish('APPLICATION_COMMAND_PERMISSIONS_UPDATE', {
      applicationId: '1',
      data: { id: '1', application_id: '1', guild_id: '2', permissions: [] },
    });
    let away = await scrape(node);
    for (let i = 0; sampleValue(away, 'slashd_redis_failed_writes_total', { write: 'bus_publish' }) < 1; i++) {
      assert.ok(i < WAIT_TRIES, 'the refused publish is never counted');
      await new Promise((resolve) => setImmediate(resolve));
      away = await scrape(node);
    }
    assert.equal(sampleValue(away, 'slashd_redis_failed_writes_total', { write: 'bus_publish' }), 1);
    assert.equal(sampleValue(away, 'slashd_redis_up'), 0);
    // A second scrape counts nothing twice.
    assert.equal(sampleValue(await scrape(node), 'slashd_redis_failed_writes_total', { write: 'bus_publish' }), 1);
  });
});
