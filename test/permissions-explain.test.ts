/**
 * "Why not?" (src/core/permissions/explain.ts): the explainer never disagrees with the command
 * picker, on random worlds (fast-check), and its reasons name what decided, in words from one place.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { APPLICATION_FLAG_EMBEDDED, CommandType } from '../src/core/commands/model.js';
import { overwritesFor } from '../src/core/permissions/command-permissions.js';
import { AccessReason, evaluateCommandAccess } from '../src/core/permissions/engine.js';
import {
  explainCommands,
  explainGuildUserInstallCommands,
  Verdict,
  type CommandExplanation,
} from '../src/core/permissions/explain.js';
import { explanationText } from '../src/core/permissions/explain-wording.js';
import type { AccessSceneInput } from '../src/core/permissions/fast-access.js';
import { InvocationReason, evaluateCommandInvocation } from '../src/core/permissions/invocation.js';
import { visibleCommands } from '../src/core/permissions/visible-commands.js';
import { CommandIndexService } from '../src/resources/command-index/service.js';
import type { StoredApplication } from '../src/store/store.js';
import {
  ACTIVITY_APP_ID,
  ALL_CHANNELS,
  ANNOUNCEMENTS,
  BOB,
  DAVE,
  DEMO_APP_ID,
  EVERYONE_ROLE,
  GENERAL,
  GUILD_ID,
  MODERATOR_ROLE,
  MUTED_ROLE,
  NSFW_LOUNGE,
  THREAD,
  channelOverwrite,
  demoApp,
  findChannelOf,
  globalCommand,
  guildCommand,
  roleOverwrite,
  testGuild,
  user,
  userOverwrite,
  ADMIN_ROLE,
} from './permissions-fixtures.js';
import { KEYS, permissionsObject, pickerCase, sceneInput, stubStore } from './helpers/picker-arbitraries.js';

const RUNS = { numRuns: 1000 };

const listed = (explanation: CommandExplanation): boolean => explanation.verdict !== Verdict.Hidden;

describe('the explainer agrees with the picker', () => {
  it('lists as shown or refused exactly the commands the picker shows, in order, on random worlds', () => {
    fc.assert(
      fc.property(sceneInput, pickerCase, (scene, { commands, guildPermissions }) => {
        const input = { ...scene, commands, guildPermissions };
        const explained = explainCommands(input);
        assert.deepEqual(
          explained.filter(listed).map((e) => e.command.id),
          visibleCommands(input).map((c) => c.id),
        );
      }),
      RUNS,
    );
  });

  it("gives the reference engine's reason, and refuses exactly what the invocation rule refuses", () => {
    fc.assert(
      fc.property(sceneInput, pickerCase, (scene, { commands, guildPermissions }) => {
        const own = guildPermissions.filter((o) => o.application_id === DEMO_APP_ID && o.guild_id === GUILD_ID);
        const appPermissions = overwritesFor(own, DEMO_APP_ID);
        const explained = explainCommands({ ...scene, commands, guildPermissions });
        const ofApp = commands.filter((c) => c.application_id === scene.app.id);
        assert.equal(explained.length, ofApp.length);
        ofApp.forEach((command, i) => {
          const input = { ...scene, command, commandPermissions: overwritesFor(own, command.id), appPermissions };
          const access = evaluateCommandAccess(input);
          const invocation = evaluateCommandInvocation(input);
          const explanation = explained[i] as CommandExplanation;
          assert.equal(explanation.reason.kind, invocation.reason, command.id);
          assert.equal(explanation.verdict === Verdict.Hidden, !access.allowed);
          assert.equal(explanation.verdict === Verdict.Refused, access.allowed && !invocation.allowed);
        });
      }),
      RUNS,
    );
  });

  it("explains through the index service the commands of the index's own apps, listing what its index lists", async () => {
    await fc.assert(
      fc.asyncProperty(sceneInput, pickerCase, fc.boolean(), async (scene, picker, frozen) => {
        const apps: StoredApplication[] = [
          { ...scene.app, keys: KEYS },
          { ...demoApp({ id: ACTIVITY_APP_ID, name: 'Activity App', flags: APPLICATION_FLAG_EMBEDDED }), keys: KEYS },
        ];
        const service = new CommandIndexService(stubStore(apps, picker.commands, picker.guildPermissions, frozen));
        const index = await service.build(scene.guild, scene.channel, scene.user, null);
        const explained = await service.explain(scene.guild, scene.channel, scene.user);
        const listedIds = explained.flatMap((app) => app.commands.filter(listed).map((e) => e.command.id));
        assert.deepEqual(
          listedIds,
          index.application_commands.map((c) => c.id),
        );
        for (const app of explained) for (const e of app.commands) assert.equal(e.text, explanationText(e));
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with the index when the user installed the app to their account too (user installs in a guild)', async () => {
    await fc.assert(
      fc.asyncProperty(sceneInput, pickerCase, fc.boolean(), fc.boolean(), async (scene, picker, frozen, own) => {
        const apps: StoredApplication[] = [{ ...scene.app, keys: KEYS }];
        const store = stubStore(apps, picker.commands, picker.guildPermissions, frozen);
        const service = new CommandIndexService({
          ...store,
          oauth2Grants: {
            listUserInstalls: async () => (own ? [scene.app.id] : []),
            getUserAuthorization: async () => null,
          },
        });
        const index = await service.build(scene.guild, scene.channel, scene.user, null);
        const explained = await service.explain(scene.guild, scene.channel, scene.user);
        const listedIds = explained.flatMap((app) => app.commands.filter(listed).map((e) => e.command.id));
        assert.deepEqual(listedIds.sort(), index.application_commands.map((c) => c.id).sort());
        for (const app of explained) for (const e of app.commands) assert.equal(e.text, explanationText(e));
      }),
      { numRuns: 300 },
    );
  });

  it('reaches every reason and words each one without holes', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(sceneInput, pickerCase, (scene, { commands, guildPermissions }) => {
        for (const explanation of explainCommands({ ...scene, commands, guildPermissions })) {
          seen.add(explanation.reason.kind);
          const text = explanationText(explanation);
          assert.match(text, /^(Shown|Hidden|Refused): \S.*\.$/);
          assert.doesNotMatch(text, /undefined|null|\[object|NaN/, JSON.stringify(explanation));
          // Only the member's own overwrite may be named among users: no one else's data.
          for (const overwrite of explanation.reason.overwrites ?? []) {
            if (overwrite.target === 'user') assert.equal(overwrite.id, scene.member.user_id);
          }
        }
      }),
      { numRuns: 4000, seed: 7 },
    );
    const expected = [...Object.values(AccessReason), InvocationReason.MissingSendMessages].sort();
    assert.deepEqual([...seen].sort(), expected);
  });
});

/** One member of the test guild in one channel, for the demo app. */
function sceneOf(userId: string, channelId = GENERAL, roles?: string[]): AccessSceneInput {
  const guild = testGuild();
  const found = guild.members.find((m) => m.user_id === userId);
  if (!found) throw new Error(`no member ${userId}`);
  return {
    app: demoApp(),
    guild,
    member: roles ? { ...found, roles } : found,
    user: user(userId),
    channel: findChannelOf(guild, channelId),
    installed: true,
  };
}

describe('what an explanation says', () => {
  it('names the role denied at command level: dave, Muted', () => {
    const command = globalCommand({ name: 'ban' });
    const [explanation] = explainCommands({
      ...sceneOf(DAVE),
      commands: [command],
      guildPermissions: [permissionsObject(command.id, [roleOverwrite(MUTED_ROLE, false)])],
    });
    assert.equal(explanation?.verdict, Verdict.Hidden);
    assert.deepEqual(explanation?.reason, {
      kind: AccessReason.RoleDenied,
      overwrites: [{ level: 'command', target: 'role', id: MUTED_ROLE, name: 'Muted', permission: false }],
    });
    assert.equal(explanationText(explanation), 'Hidden: role Muted denied at command level.');
  });

  it('names app-level overwrites as such, @everyone and All channels included', () => {
    const command = globalCommand();
    const cases = [
      { app: [roleOverwrite(MODERATOR_ROLE, false)], text: 'Hidden: role Moderator denied at app level.' },
      { app: [roleOverwrite(EVERYONE_ROLE, false)], text: 'Hidden: @everyone denied at app level.' },
      { app: [channelOverwrite(ALL_CHANNELS, false)], text: 'Hidden: All channels denied at app level.' },
      { app: [channelOverwrite(GENERAL, false)], text: 'Hidden: channel #general denied at app level.' },
      { app: [userOverwrite(BOB, false)], text: 'Hidden: you (bob) are denied at app level.' },
    ];
    for (const { app, text } of cases) {
      const [explanation] = explainCommands({
        ...sceneOf(BOB),
        commands: [command],
        guildPermissions: [permissionsObject(DEMO_APP_ID, app)],
      });
      assert.equal(explanationText(explanation!), text);
    }
  });

  it('in a guild through a user install: the contexts, the integration types, the install, and shown', () => {
    const scene = { ...sceneOf(BOB), app: demoApp({ integration_types: [0, 1] }) };
    const commands = [
      globalCommand({ name: 'note', integration_types: [1], contexts: [0, 1, 2] }, '1400000000000000011'),
      globalCommand({ name: 'dmonly', integration_types: [1], contexts: [1, 2] }, '1400000000000000012'),
      globalCommand({ name: 'guildside', integration_types: [0], contexts: [0] }, '1400000000000000013'),
    ];
    const texts = (installed: boolean) =>
      explainGuildUserInstallCommands(scene, installed, commands).map((e) => [
        e.verdict,
        e.reason.kind,
        explanationText(e),
      ]);
    assert.deepEqual(texts(true), [
      [
        'shown',
        'user_install_allowed',
        'Shown: you installed the app to your account, and the command works in servers.',
      ],
      [
        'hidden',
        'user_install_context',
        "Hidden: the command's contexts (BOT_DM and PRIVATE_CHANNEL) leave out servers (GUILD).",
      ],
      [
        'hidden',
        'user_install_integration_type',
        "Hidden: the command's integration types (GUILD_INSTALL) leave out user installs (USER_INSTALL).",
      ],
    ]);
    assert.deepEqual(texts(false)[0], [
      'hidden',
      'user_install_missing',
      'Hidden: the app is not installed to your account: its user-install commands do not follow you here.',
    ]);
    // Without USE_APPLICATION_COMMANDS in the channel, the user's install brings nothing either.
    const muted = {
      ...scene,
      guild: { ...scene.guild, roles: scene.guild.roles.map((r) => ({ ...r, permissions: '1024' })) },
    };
    const [withoutUse] = explainGuildUserInstallCommands(muted, true, commands);
    assert.equal(withoutUse!.reason.kind, AccessReason.MissingUseApplicationCommands);
    assert.deepEqual(withoutUse!.reason.missing_permissions, ['USE_APPLICATION_COMMANDS']);
  });

  it('a thread reads its parent: a channel overwrite on #general hides the command in its thread', () => {
    const command = globalCommand();
    const [explanation] = explainCommands({
      ...sceneOf(BOB, THREAD),
      commands: [command],
      guildPermissions: [permissionsObject(command.id, [channelOverwrite(GENERAL, false)])],
    });
    assert.equal(explanation?.reason.channel?.id, GENERAL);
    assert.equal(explanationText(explanation), 'Hidden: channel #general denied at command level.');
  });

  it('refuses a USER command where the member cannot send messages, and keeps it listed', () => {
    const command = globalCommand({ type: CommandType.User, name: 'Profile', description: '' });
    const [explanation] = explainCommands({
      ...sceneOf(BOB, ANNOUNCEMENTS),
      commands: [command],
      guildPermissions: [],
    });
    assert.equal(explanation?.verdict, Verdict.Refused);
    assert.deepEqual(explanation?.reason.missing_permissions, ['SEND_MESSAGES']);
    assert.equal(
      explanationText(explanation),
      'Refused: USER commands need SEND_MESSAGES in #announcements: listed, but using it fails.',
    );
  });

  it('says which permission default_member_permissions needs and which one is missing', () => {
    const command = guildCommand(GUILD_ID, { default_member_permissions: String((1n << 5n) | (1n << 13n)) });
    const [explanation] = explainCommands({ ...sceneOf(BOB), commands: [command], guildPermissions: [] });
    assert.deepEqual(explanation?.reason.required_permissions, ['MANAGE_GUILD', 'MANAGE_MESSAGES']);
    assert.deepEqual(explanation?.reason.missing_permissions, ['MANAGE_MESSAGES']);
    assert.equal(
      explanationText(explanation),
      'Hidden: needs MANAGE_GUILD and MANAGE_MESSAGES in #general (default_member_permissions); you lack MANAGE_MESSAGES.',
    );
  });

  it('says when the channel is not age-restricted, and names the roles that make an administrator', () => {
    const nsfw = globalCommand({ nsfw: true, name: 'spicy' });
    const [inGeneral] = explainCommands({ ...sceneOf(BOB), commands: [nsfw], guildPermissions: [] });
    assert.equal(
      explanationText(inGeneral!),
      'Hidden: age-restricted command, and #general is not an age-restricted channel.',
    );
    const [inLounge] = explainCommands({ ...sceneOf(BOB, NSFW_LOUNGE), commands: [nsfw], guildPermissions: [] });
    assert.equal(inLounge?.verdict, Verdict.Shown);
    const guild = testGuild();
    guild.owner_id = DAVE;
    const admin = { ...sceneOf(BOB, GENERAL, [ADMIN_ROLE]), guild };
    const [asAdmin] = explainCommands({ ...admin, commands: [globalCommand()], guildPermissions: [] });
    assert.equal(
      explanationText(asAdmin!),
      'Shown: role Admin grants ADMINISTRATOR: administrators use every command.',
    );
  });
});
