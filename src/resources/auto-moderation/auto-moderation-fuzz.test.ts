/**
 * Bad input to the auto moderation routes never yields a 5xx and writes nothing: bounded runs of
 * random JSON and of rule-shaped bodies with random fields (creates, edits), random path segments,
 * and random raw bytes; every refusal a v10 error body, and the guild never holds more rules than
 * the caps allow. Through `inject()` (no socket), in the fast tier.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { grantBotBits } from '../../../test/helpers/guild-admin.js';
import { assertErrorBody } from '../../../test/helpers/openapi.js';
import { injectServer, type TestResponse, type TestServer } from '../../../test/helpers/server.js';
import { BOT, DEMO_APP_ID, GENERAL, TEST_GUILD_ID } from '../../../test/helpers/world.js';

function assertClientError(response: TestResponse, what: string): void {
  assert.ok(response.status < 500, `${what} → ${response.status} ${response.text}`);
  if (response.status >= 400) assertErrorBody(response.status, response.body);
}

const fieldValue = fc.oneof(
  fc.anything({ maxDepth: 2 }),
  fc.integer({ min: -5, max: 8 }),
  fc.constantFrom('1345183757107200011', '(?=x)', '\\1', '[', 'a*', ''),
  fc.array(fc.string({ maxLength: 70 }), { maxLength: 12 }),
);

const actionArb = fc.record(
  {
    type: fc.oneof(fc.integer({ min: 0, max: 5 }), fc.anything({ maxDepth: 1 })),
    metadata: fc.oneof(
      fc.record(
        {
          custom_message: fieldValue,
          channel_id: fc.oneof(fc.constant(GENERAL), fieldValue),
          duration_seconds: fc.oneof(fc.integer({ min: -10, max: 2_500_000 }), fieldValue),
        },
        { requiredKeys: [] },
      ),
      fieldValue,
    ),
  },
  { requiredKeys: [] },
);

const ruleArb = fc.record(
  {
    name: fc.oneof(fc.string({ maxLength: 120 }), fieldValue),
    event_type: fc.oneof(fc.integer({ min: 0, max: 3 }), fieldValue),
    trigger_type: fc.oneof(fc.integer({ min: 0, max: 7 }), fieldValue),
    trigger_metadata: fc.oneof(
      fc.record(
        {
          keyword_filter: fieldValue,
          regex_patterns: fc.oneof(fc.array(fc.string({ maxLength: 30 }), { maxLength: 11 }), fieldValue),
          allow_list: fieldValue,
          presets: fc.oneof(fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 4 }), fieldValue),
          mention_total_limit: fc.oneof(fc.integer({ min: -2, max: 60 }), fieldValue),
          mention_raid_protection_enabled: fieldValue,
        },
        { requiredKeys: [] },
      ),
      fieldValue,
    ),
    actions: fc.oneof(fc.array(actionArb, { maxLength: 6 }), fieldValue),
    enabled: fieldValue,
    exempt_roles: fieldValue,
    exempt_channels: fieldValue,
  },
  { requiredKeys: [] },
);

describe('auto moderation: no 5xx, nothing past the caps', () => {
  let server: TestServer;
  let ruleId = '';
  const base = `/guilds/${TEST_GUILD_ID}/auto-moderation/rules`;

  before(async () => {
    server = await injectServer();
    await grantBotBits(
      server,
      TEST_GUILD_ID,
      DEMO_APP_ID,
      PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ModerateMembers,
    );
    const made = await server.request('POST', base, {
      auth: BOT,
      body: {
        name: 'fuzzed',
        event_type: 1,
        trigger_type: 1,
        trigger_metadata: { keyword_filter: ['x'] },
        actions: [{ type: 1 }],
      },
    });
    assert.equal(made.status, 200, made.text);
    ruleId = made.body.id as string;
  });
  after(() => server?.close());

  test('random rule bodies: created only when valid, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(ruleArb, fc.boolean(), async (body, edit) => {
        const response = edit
          ? await server.request('PATCH', `${base}/${ruleId}`, { auth: BOT, body })
          : await server.request('POST', base, { auth: BOT, body });
        assertClientError(response, JSON.stringify(body).slice(0, 300));
        if (!edit && response.status === 200) {
          await server.request('DELETE', `${base}/${response.body.id as string}`, { auth: BOT });
        }
      }),
      { numRuns: 300 },
    );
    const rules = (await server.request('GET', base, { auth: BOT })).body as { trigger_type: number }[];
    assert.ok(rules.filter((r) => r.trigger_type === 1).length <= 6);
    assert.ok(rules.some((r) => (r as { id?: string }).id === ruleId));
  });

  test('random JSON, raw bytes and path segments', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.anything(),
        fc.string({ maxLength: 200 }),
        fc.stringMatching(/^[A-Za-z0-9._~%@-]{1,30}$/),
        async (json, rawText, segment) => {
          assertClientError(await server.request('POST', base, { auth: BOT, body: json }), 'json');
          assertClientError(
            await server.request('PATCH', `${base}/${ruleId}`, {
              auth: BOT,
              rawBody: rawText,
              headers: { 'content-type': 'application/json' },
            }),
            'raw',
          );
          for (const method of ['GET', 'PATCH', 'DELETE']) {
            assertClientError(
              await server.request(method, `/guilds/${segment}/auto-moderation/rules/${segment}`, {
                auth: BOT,
                ...(method === 'PATCH' ? { body: { name: 'x' } } : {}),
              }),
              `${method} ${segment}`,
            );
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
