import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { OptionType, type OptionDefinition, type StoredCommand } from '../../core/commands/model.js';
import { buildInteraction } from './rules/build-interaction.js';
import { checkInvocation, type InvocationKind, type WireDataOption } from './rules/check-invocation.js';
import { checkCallback, checkMessageData } from './rules/responses.js';
import {
  APP_ID,
  GENERAL,
  HELLO_MESSAGE,
  NOBODY,
  dmTarget,
  everyOptionCommand,
  guildTarget,
  invocationData,
  messageCommand,
  subcommandCommand,
  testGuild,
  userCommand,
  userOf,
  world,
  BOB,
} from '../../../test/interactions-fixtures.js';

const RUNS = 300;
const COMMANDS = [everyOptionCommand, subcommandCommand, userCommand, messageCommand];
const KINDS: InvocationKind[] = ['command', 'autocomplete'];

function assertWellFormed(result: ReturnType<typeof checkInvocation>): void {
  if (result.ok) return;
  assert.ok(result.issues.length > 0);
  for (const found of result.issues) {
    assert.ok(Array.isArray(found.path));
    assert.equal(typeof found.code, 'string');
  }
}

/** Option entries that name real options with arbitrary values: deeper than random JSON reaches. */
const OPTION_NAMES = [
  'text',
  'count',
  'ratio',
  'flag',
  'who',
  'where',
  'role',
  'any',
  'file',
  'size',
  'query',
  'amount',
  'config',
  'set',
  'ping',
  'key',
  'value',
];
const entry = fc.letrec((tie) => ({
  option: fc.record(
    {
      name: fc.oneof(fc.constantFrom(...OPTION_NAMES), fc.jsonValue()),
      type: fc.oneof(fc.integer({ min: 0, max: 12 }), fc.jsonValue()),
      value: fc.jsonValue(),
      focused: fc.oneof(fc.boolean(), fc.jsonValue()),
      options: fc.oneof({ depthSize: 'small' }, fc.array(tie('option'), { maxLength: 3 }), fc.jsonValue()),
    },
    { requiredKeys: [] },
  ),
})).option;

describe('checkInvocation never throws', () => {
  it('on arbitrary JSON as data', () => {
    fc.assert(
      fc.property(fc.constantFrom(...COMMANDS), fc.constantFrom(...KINDS), fc.jsonValue(), (command, kind, data) => {
        assertWellFormed(checkInvocation(command(), data, kind, guildTarget()));
      }),
      { numRuns: RUNS },
    );
  });

  it('on arbitrary option trees and targets, in and outside guilds', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...COMMANDS),
        fc.constantFrom(...KINDS),
        fc.array(entry, { maxLength: 5 }),
        fc.oneof(fc.constant(undefined), fc.constantFrom(BOB, HELLO_MESSAGE, NOBODY), fc.jsonValue()),
        fc.boolean(),
        (command, kind, options, targetId, inGuild) => {
          const stored = command();
          const data = invocationData(stored, { options, target_id: targetId });
          assertWellFormed(checkInvocation(stored, data, kind, inGuild ? guildTarget() : dmTarget()));
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('checkCallback and checkMessageData never throw', () => {
  it('on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom<2 | 4>(2, 4), fc.boolean(), (body, interactionType, activities) => {
        checkCallback(body, { interactionType, appHasActivities: activities, focusedOption: null });
        checkMessageData(body, {});
        checkMessageData(body, { partial: true });
        checkMessageData(body, { forDeferred: true });
      }),
      { numRuns: RUNS },
    );
  });

  it('on callbacks of every type with arbitrary data', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 13 }), fc.jsonValue(), (type, data) => {
        checkCallback({ type, data }, { interactionType: 2, appHasActivities: true, focusedOption: null });
        checkCallback({ type, data }, { interactionType: 4, appHasActivities: false, focusedOption: null });
      }),
      { numRuns: RUNS },
    );
  });
});

// ---- valid invocations are accepted ------------------------------------------------------------

const guild = testGuild();
const userIds = world().users.map((user) => user.id);
const roleIds = guild.roles.map((role) => role.id);
const channelIds = guild.channels.map((channel) => channel.id);
const textChannelIds = guild.channels.filter((channel) => channel.type === 0).map((channel) => channel.id);
const snowflake = fc.bigInt({ min: 1n, max: (1n << 63n) - 1n }).map(String);

/** A value the option accepts (choices and bounds respected). */
function validValue(option: OptionDefinition): fc.Arbitrary<string | number | boolean> {
  if (option.choices?.length) return fc.constantFrom(...option.choices.map((choice) => choice.value));
  switch (option.type) {
    case OptionType.String:
      return fc.string({
        minLength: option.min_length ?? 0,
        maxLength: Math.min(option.max_length ?? 6000, 50),
        unit: 'binary',
      });
    case OptionType.Integer:
      return fc.integer({
        min: option.min_value ?? -Number.MAX_SAFE_INTEGER,
        max: option.max_value ?? Number.MAX_SAFE_INTEGER,
      });
    case OptionType.Number:
      return fc.double({
        min: option.min_value ?? -(2 ** 53),
        max: option.max_value ?? 2 ** 53,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case OptionType.Boolean:
      return fc.boolean();
    case OptionType.User:
      return fc.constantFrom(...userIds);
    case OptionType.Channel:
      return fc.constantFrom(...(option.channel_types?.length ? textChannelIds : channelIds));
    case OptionType.Role:
      return fc.constantFrom(...roleIds);
    case OptionType.Mentionable:
      return fc.constantFrom(...userIds, ...roleIds.filter((id) => id !== guild.id));
    default:
      return snowflake;
  }
}

/** Some of the leaf options (the required ones always), in any order, with valid values. */
function validLeafOptions(definitions: readonly OptionDefinition[]): fc.Arbitrary<WireDataOption[]> {
  const required = definitions.filter((option) => option.required);
  const optional = definitions.filter((option) => !option.required);
  return fc.shuffledSubarray(optional).chain((chosen) => {
    const picked = [...required, ...chosen];
    return fc.tuple(...picked.map(validValue)).chain((values) =>
      fc.shuffledSubarray(
        picked.map((option, index) => ({
          name: option.name,
          type: option.type,
          value: values[index] as string | number | boolean,
        })),
        { minLength: picked.length },
      ),
    );
  });
}

describe('valid invocations are accepted', () => {
  it('any valid choice of options of every type', () => {
    const command = everyOptionCommand();
    fc.assert(
      fc.property(validLeafOptions(command.definition.options), (options) => {
        const result = checkInvocation(command, invocationData(command, { options }), 'command', guildTarget());
        if (!result.ok) assert.fail(JSON.stringify({ options, issues: result.issues }));
        assert.deepEqual(result.value.options, options.length > 0 ? options : undefined);
      }),
      { numRuns: RUNS },
    );
  });

  it('any path through subcommands', () => {
    const command = subcommandCommand();
    const paths = fc.constantFrom(['config', 'set'], ['config', 'get'], ['ping']);
    fc.assert(
      fc.property(
        paths.chain((path) => fc.tuple(fc.constant(path), validLeafOptions(leafDefinitions(command, path)))),
        ([path, leaf]) => {
          const options = nest(command, path, leaf);
          const result = checkInvocation(command, invocationData(command, { options }), 'command', guildTarget());
          if (!result.ok) assert.fail(JSON.stringify(result.issues));
          assert.deepEqual(result.value.options, options);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('any autocomplete request: one focused option, any valid partial input, any other options', () => {
    const command = everyOptionCommand();
    const autocompleted = command.definition.options.filter((option) => option.autocomplete);
    const partial = (option: OptionDefinition): fc.Arbitrary<string> =>
      option.type === OptionType.String
        ? fc.string({ maxLength: 200 })
        : fc.oneof(
            fc.constant(''),
            (option.type === OptionType.Integer
              ? fc.integer({ min: -1e15, max: 1e15 })
              : fc.double({ min: -1e15, max: 1e15, noNaN: true })
            ).map(String),
          );
    const focused = fc
      .constantFrom(...autocompleted)
      .chain((option) =>
        partial(option).map((value) => ({ name: option.name, type: option.type, value, focused: true as const })),
      );
    const others = validLeafOptions(
      command.definition.options.filter((option) => !option.autocomplete && !option.required),
    );
    fc.assert(
      fc.property(focused, others, fc.nat(), (focusedOption, rest, at) => {
        const options: WireDataOption[] = [...rest];
        options.splice(at % (rest.length + 1), 0, focusedOption);
        const result = checkInvocation(command, invocationData(command, { options }), 'autocomplete', guildTarget());
        if (!result.ok) assert.fail(JSON.stringify({ options, issues: result.issues }));
        assert.deepEqual(result.value.focused?.path, [focusedOption.name]);
        assert.deepEqual(result.value.options, options);
      }),
      { numRuns: RUNS },
    );
  });

  it('and every accepted invocation builds an interaction whose resolved maps cover its ids', () => {
    const command = everyOptionCommand();
    fc.assert(
      fc.property(validLeafOptions(command.definition.options), (options) => {
        const target = guildTarget();
        const result = checkInvocation(command, invocationData(command, { options }), 'command', target);
        if (!result.ok) return assert.fail('refused');
        const member = guild.members.find((candidate) => candidate.user_id === BOB) ?? null;
        const interaction = buildInteraction({
          id: '1',
          token: 't',
          kind: 'command',
          app: demoApp(),
          command,
          checked: result.value,
          user: userOf(BOB),
          guild: target.guild,
          member,
          channel: target.channel,
          locale: 'fr',
          messages: target.messages,
          users: target.users,
          authorizingIntegrationOwners: { '0': guild.id },
          context: 0,
          appPermissions: '0',
          memberPermissions: '0',
        });
        const { data } = interaction;
        const { referenced } = result.value;
        for (const kind of ['users', 'members', 'roles', 'channels', 'attachments'] as const) {
          for (const id of referenced[kind]) assert.ok(data.resolved?.[kind]?.[id], `${kind} ${id}`);
        }
        assert.equal(JSON.parse(JSON.stringify(interaction)).channel_id, GENERAL);
      }),
      { numRuns: 100 },
    );
  });
});

function leafDefinitions(command: StoredCommand, path: readonly string[]): OptionDefinition[] {
  let level: readonly OptionDefinition[] = command.definition.options;
  for (const name of path) level = level.find((option) => option.name === name)?.options ?? [];
  return [...level];
}

function nest(command: StoredCommand, path: readonly string[], leaf: WireDataOption[]): WireDataOption[] {
  let level: readonly OptionDefinition[] = command.definition.options;
  const branches = path.map((name) => {
    const option = level.find((candidate) => candidate.name === name);
    if (!option) throw new Error(`no ${name}`);
    level = option.options ?? [];
    return option;
  });
  return branches.reduceRight<WireDataOption[]>(
    (inner, option) => [{ name: option.name, type: option.type, options: inner }],
    leaf,
  );
}

function demoApp() {
  const app = world().applications.find((candidate) => candidate.id === APP_ID);
  if (!app) throw new Error('demo app missing');
  return app;
}
