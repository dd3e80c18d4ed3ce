/**
 * The command picker's fast path gives the reference's answers (fast-check):
 *
 * - `evaluateCommandAccessFast` (a scene per member and channel, indexed overwrites) decides every
 *   command exactly as `evaluateCommandAccess`, reason included, on inputs wider than the engine's
 *   own properties: every availability rule, owners, administrators, duplicate and foreign
 *   overwrites, threads (an orphan one too), malformed bit sets;
 * - `visibleCommands` equals the reference filter, on fresh objects and on the store's deeply
 *   frozen ones, whose derived indexes are cached (and must not leak between members);
 * - `toWireCommandJson` is `JSON.stringify(toWireCommand(...))` for every view, cached or not;
 * - the index service's JSON text is byte for byte the JSON of its object form.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { APPLICATION_FLAG_EMBEDDED, type CommandDefinition, type StoredCommand } from '../src/core/commands/model.js';
import {
  DICTIONARIES,
  toWireCommand,
  toWireCommandJson,
  type LocalizationView,
} from '../src/resources/commands/rules/wire.js';
import type { Locale } from '../src/core/locales.js';
import {
  overwritesFor,
  type CommandPermission,
  type GuildCommandPermissions,
} from '../src/core/permissions/command-permissions.js';
import {
  AccessReason,
  evaluateCommandAccess,
  type AccessDecision,
  type CommandAccessInput,
} from '../src/core/permissions/engine.js';
import { AccessScene, evaluateCommandAccessFast, type AccessSceneInput } from '../src/core/permissions/fast-access.js';
import { indexOverwrites } from '../src/core/permissions/overwrite-index.js';
import { visibleCommands } from '../src/core/permissions/visible-commands.js';
import type { Channel } from '../src/core/world/types.js';
import { CommandIndexService } from '../src/resources/command-index/service.js';
import type { StoredApplication } from '../src/store/store.js';
import {
  ACTIVITY_APP_ID,
  ALL_CHANNELS,
  BOB,
  CAROL,
  DEMO_APP_ID,
  ERIN,
  EVERYONE_ROLE,
  GENERAL,
  GUILD_ID,
  MODERATOR_ROLE,
  SECOND_GUILD_ID,
  channelOverwrite,
  definition,
  demoApp,
  member,
  roleOverwrite,
  testGuild,
  user,
  userOverwrite,
} from './permissions-fixtures.js';
import {
  COMMAND_IDS,
  KEYS,
  anyCommand,
  defaultMemberPermissions,
  frozenCopy,
  optionalOverwrites,
  permissionsObject,
  pickerCase,
  sceneInput,
  stubStore,
} from './helpers/picker-arbitraries.js';

const RUNS = { numRuns: 500 };

// ---- references ----

/** One command, through the fast path, with a scene of its own. */
function fastDecision(input: CommandAccessInput): AccessDecision {
  const { command, commandPermissions, appPermissions } = input;
  return evaluateCommandAccessFast(
    new AccessScene(input),
    command,
    indexOverwrites(commandPermissions),
    indexOverwrites(appPermissions),
  );
}

/** The picker as it was before the fast path: the reference engine on each command, objects found by a scan. */
function referenceVisible(
  scene: AccessSceneInput,
  commands: readonly StoredCommand[],
  guildPermissions: readonly GuildCommandPermissions[],
): StoredCommand[] {
  const own = guildPermissions.filter((o) => o.application_id === scene.app.id && o.guild_id === scene.guild.id);
  const appPermissions = overwritesFor(own, scene.app.id);
  return commands.filter(
    (command) =>
      command.application_id === scene.app.id &&
      evaluateCommandAccess({ ...scene, command, commandPermissions: overwritesFor(own, command.id), appPermissions })
        .allowed,
  );
}

const ids = (commands: readonly StoredCommand[]): string[] => commands.map((command) => command.id);

/** The picker's ids through the fast path and through the reference. */
function pickedBoth(
  scene: AccessSceneInput,
  commands: readonly StoredCommand[],
  guildPermissions: readonly GuildCommandPermissions[],
): { fast: string[]; reference: string[] } {
  return {
    fast: ids(visibleCommands({ ...scene, commands, guildPermissions })),
    reference: ids(referenceVisible(scene, commands, guildPermissions)),
  };
}

/** One engine input: a scene, a command and its overwrites. */
const accessCase: fc.Arbitrary<CommandAccessInput> = fc
  .record({
    scene: sceneInput,
    command: anyCommand,
    commandPermissions: optionalOverwrites,
    appPermissions: optionalOverwrites,
  })
  .map(({ scene, ...rest }) => ({ ...scene, ...rest }));

// ---- properties ----

describe('the fast path of the engine', () => {
  it('decides a command exactly as evaluateCommandAccess, reason included', () => {
    fc.assert(
      fc.property(accessCase, (input) => {
        assert.deepEqual(fastDecision(input), evaluateCommandAccess(input));
      }),
      { numRuns: 2000 },
    );
  });

  it('decides every command of a picker with one scene as the reference does with fresh inputs', () => {
    fc.assert(
      fc.property(sceneInput, pickerCase, (scene, { commands, guildPermissions }) => {
        const shared = new AccessScene(scene);
        const own = guildPermissions.filter((o) => o.application_id === DEMO_APP_ID && o.guild_id === GUILD_ID);
        const appPermissions = overwritesFor(own, DEMO_APP_ID);
        for (const command of commands) {
          const commandPermissions = overwritesFor(own, command.id);
          const fast = evaluateCommandAccessFast(
            shared,
            command,
            indexOverwrites(commandPermissions),
            indexOverwrites(appPermissions),
          );
          const reference = evaluateCommandAccess({ ...scene, command, commandPermissions, appPermissions });
          assert.deepEqual(fast, reference, command.id);
        }
      }),
      RUNS,
    );
  });

  it('is reached in every branch: each reason code of the reference occurs in these runs', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(accessCase, (input) => {
        seen.add(fastDecision(input).reason);
      }),
      { numRuns: 5000, seed: 4 },
    );
    // Every reason of the reference, and nothing else: the generators reach every branch.
    assert.deepEqual([...seen].sort(), Object.values(AccessReason).sort());
  });
});

describe('visibleCommands on the fast path', () => {
  it('shows what the reference filter shows, on fresh objects', () => {
    fc.assert(
      fc.property(sceneInput, pickerCase, (scene, { commands, guildPermissions }) => {
        const { fast, reference } = pickedBoth(scene, commands, guildPermissions);
        assert.deepEqual(fast, reference);
      }),
      RUNS,
    );
  });

  it("shows the same on the store's frozen lists, for several members and guilds in turn (cached indexes do not leak)", () => {
    fc.assert(
      fc.property(fc.array(sceneInput, { minLength: 2, maxLength: 4 }), pickerCase, (scenes, picker) => {
        const commands = frozenCopy(picker.commands);
        const guildPermissions = frozenCopy(picker.guildPermissions);
        // The same list read for the second guild must be filtered (and cached) for that guild.
        const inBothGuilds = scenes.flatMap((scene) => [
          scene,
          { ...scene, guild: { ...scene.guild, id: SECOND_GUILD_ID } },
        ]);
        for (const scene of [...inBothGuilds, ...inBothGuilds]) {
          const { fast, reference } = pickedBoth(scene, commands, guildPermissions);
          assert.deepEqual(fast, reference);
        }
      }),
      RUNS,
    );
  });

  it('reads duplicate overwrites as the reference does: the first for a member, a channel or @everyone, any allow for roles', () => {
    const scene = { ...sceneFixture(), member: member(BOB, [MODERATOR_ROLE]) };
    const command = demoGlobalCommand(0);
    const cases: CommandPermission[][] = [
      [userOverwrite(BOB, false), userOverwrite(BOB, true)],
      [userOverwrite(BOB, true), userOverwrite(BOB, false)],
      [channelOverwrite(GENERAL, false), channelOverwrite(GENERAL, true)],
      [channelOverwrite(ALL_CHANNELS, true), channelOverwrite(ALL_CHANNELS, false)],
      [roleOverwrite(MODERATOR_ROLE, false), roleOverwrite(MODERATOR_ROLE, true)],
      [roleOverwrite(MODERATOR_ROLE, false), roleOverwrite(MODERATOR_ROLE, false)],
      [roleOverwrite(EVERYONE_ROLE, false), roleOverwrite(EVERYONE_ROLE, true)],
      [roleOverwrite(EVERYONE_ROLE, true), roleOverwrite(EVERYONE_ROLE, false)],
    ];
    for (const overwrites of cases) {
      for (const level of ['command', 'app'] as const) {
        const input: CommandAccessInput = {
          ...scene,
          command,
          commandPermissions: level === 'command' ? overwrites : null,
          appPermissions: level === 'app' ? overwrites : null,
        };
        assert.deepEqual(fastDecision(input), evaluateCommandAccess(input), `${level}: ${JSON.stringify(overwrites)}`);
      }
    }
  });

  it('never caches what is not frozen: a changed overwrite list is read anew', () => {
    const scene = { ...sceneFixture(), member: member(BOB, [MODERATOR_ROLE]) };
    const command = demoGlobalCommand(0);
    const overwrites: CommandPermission[] = [{ id: MODERATOR_ROLE, type: 1, permission: true }];
    const guildPermissions = [permissionsObject(command.id, overwrites)];
    assert.equal(visibleCommands({ ...scene, commands: [command], guildPermissions }).length, 1);
    overwrites[0] = { id: MODERATOR_ROLE, type: 1, permission: false };
    assert.equal(visibleCommands({ ...scene, commands: [command], guildPermissions }).length, 0);
  });
});

/** A global command of the demo app with the `n`th test id. */
function demoGlobalCommand(n: number, overrides: Partial<CommandDefinition> = {}): StoredCommand {
  const id = COMMAND_IDS[n] ?? '';
  return { id, application_id: DEMO_APP_ID, guild_id: null, version: id, definition: definition(overrides) };
}

/** Bob in #general of the test guild. */
function sceneFixture(): AccessSceneInput {
  const guild = testGuild();
  return {
    app: demoApp(),
    guild,
    member: guild.members.find((m) => m.user_id === BOB) ?? member(BOB),
    user: user(BOB),
    channel: guild.channels.find((c) => c.id === GENERAL) as Channel,
    installed: true,
  };
}

// ---- wire JSON ----

const LOCALES: (Locale | null)[] = [null, 'fr', 'de', 'en-GB', 'en-US', 'es-419', 'es-ES'];
const VIEWS: LocalizationView[] = [
  DICTIONARIES,
  ...LOCALES.map((locale): LocalizationView => ({ kind: 'localized', locale })),
];

const localizationMap = fc.option(
  fc.dictionary(fc.constantFrom('fr', 'de', 'en-US', 'es-ES', 'ja'), fc.string({ minLength: 1, maxLength: 8 }), {
    maxKeys: 3,
  }),
  { nil: null },
);

/** Commands with the wire's optional parts: localizations, options with choices and limits, a handler. */
const wireCommand: fc.Arbitrary<StoredCommand> = fc
  .record({
    global: fc.boolean(),
    nameLocalizations: localizationMap,
    descriptionLocalizations: localizationMap,
    choiceLocalizations: localizationMap,
    withOptions: fc.boolean(),
    handler: fc.constantFrom<number | null>(null, 1, 2),
    dmp: defaultMemberPermissions,
  })
  .map((w) => {
    const options: CommandDefinition['options'] = w.withOptions
      ? [
          {
            type: 3,
            name: 'query',
            name_localizations: w.nameLocalizations,
            description: 'what to look for',
            description_localizations: w.descriptionLocalizations,
            required: true,
            choices: [{ name: 'one', name_localizations: w.choiceLocalizations, value: '1' }],
            max_length: 20,
          },
          {
            type: 4,
            name: 'count',
            name_localizations: null,
            description: 'how many',
            description_localizations: null,
            min_value: 1,
            autocomplete: false,
          },
        ]
      : [];
    const fields = {
      name_localizations: w.nameLocalizations,
      description_localizations: w.descriptionLocalizations,
      options,
      handler: w.handler,
      default_member_permissions: w.dmp,
    };
    return w.global
      ? {
          id: '1400000000000000009',
          application_id: DEMO_APP_ID,
          guild_id: null,
          version: '7',
          definition: definition(fields),
        }
      : {
          id: '1400000000000000010',
          application_id: DEMO_APP_ID,
          guild_id: GUILD_ID,
          version: '8',
          definition: definition({ ...fields, contexts: null, integration_types: null }),
        };
  });

describe('toWireCommandJson', () => {
  it('is JSON.stringify(toWireCommand(...)) for every view, frozen (cached) or not, in any order of views', () => {
    fc.assert(
      fc.property(wireCommand, fc.shuffledSubarray(VIEWS, { minLength: 1 }), (command, views) => {
        const frozen = frozenCopy(command);
        for (const view of [...views, ...views]) {
          const expected = JSON.stringify(toWireCommand(command, view));
          assert.equal(toWireCommandJson(command, view), expected);
          assert.equal(toWireCommandJson(frozen, view), expected);
        }
      }),
      RUNS,
    );
  });
});

// ---- the index service ----

describe('the index service', () => {
  it('sends as JSON text exactly the JSON of its object form', async () => {
    await fc.assert(
      fc.asyncProperty(
        sceneInput,
        pickerCase,
        fc.constantFrom(...LOCALES),
        fc.boolean(),
        async (scene, picker, locale, frozen) => {
          const apps: StoredApplication[] = [
            { ...scene.app, keys: KEYS },
            { ...demoApp({ id: ACTIVITY_APP_ID, name: 'Activity App', flags: APPLICATION_FLAG_EMBEDDED }), keys: KEYS },
          ];
          const service = new CommandIndexService(stubStore(apps, picker.commands, picker.guildPermissions, frozen));
          for (let call = 0; call < 2; call++) {
            const index = await service.build(scene.guild, scene.channel, scene.user, locale);
            assert.equal(
              await service.buildJson(scene.guild, scene.channel, scene.user, locale),
              JSON.stringify(index),
            );
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('shows a member the commands the reference picker allows (the demo app installed in the test guild)', async () => {
    const guild = testGuild();
    // MANAGE_GUILD (32): bob the moderator has it, carol does not; erin is no member at all.
    const commands = [
      demoGlobalCommand(0, { name: 'open' }),
      demoGlobalCommand(1, { name: 'mods', default_member_permissions: '32' }),
    ];
    const service = new CommandIndexService(stubStore([{ ...demoApp(), keys: KEYS }], commands, [], true));
    const channelOfIndex = guild.channels.find((c) => c.id === GENERAL) as Channel;
    const names = async (userId: string): Promise<string[]> => {
      const json = await service.buildJson(guild, channelOfIndex, user(userId), 'fr');
      return (JSON.parse(json) as { application_commands: { name: string }[] }).application_commands.map((c) => c.name);
    };
    assert.deepEqual(await names(BOB), ['open', 'mods']);
    assert.deepEqual(await names(CAROL), ['open']);
    assert.deepEqual(await names(ERIN), []);
  });
});
