/**
 * A bot's standard deploy flow, unmodified ("Must show"): @discordjs/rest with its `api`
 * option pointed at slashd, commands built with @discordjs/builders, routes from
 * discord-api-types. REST hides statuses, so the statuses are checked with raw requests beside it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ContextMenuCommandBuilder, SlashCommandBuilder } from '@discordjs/builders';
import { DiscordAPIError, REST } from '@discordjs/rest';
import {
  ApplicationCommandType,
  ApplicationIntegrationType,
  InteractionContextType,
  PermissionFlagsBits,
  Routes,
  type RESTPostAPIApplicationCommandsJSONBody,
} from 'discord-api-types/v10';
import { Client, ClientApplication } from 'discord.js';
import {
  assertErrorBody,
  assertWireCommand,
  assertWireCommands,
  withSchemaChecks,
} from '../../../test/helpers/openapi.js';
import { startServer, type TestServer } from '../../../test/helpers/server.js';
import {
  ACTIVITY_APP_ID,
  ACTIVITY_BOT_TOKEN,
  BOT,
  DEMO_APP_ID,
  DEMO_BOT_TOKEN,
  TEST_GUILD_ID,
} from '../../../test/helpers/world.js';
import type { Json } from '../../../test/helpers/json.js';

const GLOBAL = { applicationId: DEMO_APP_ID, guildId: null };
const GUILD = { applicationId: DEMO_APP_ID, guildId: TEST_GUILD_ID };

/** A REST client exactly as a bot makes one, pointed at slashd (`api` is the base before /v10). */
function restFor(server: TestServer, token = DEMO_BOT_TOKEN): REST {
  return new REST({ version: '10', api: `${server.url}/api` }).setToken(token);
}

function disposeRest(rest: REST): void {
  rest.clearHashSweeper();
  rest.clearHandlerSweeper();
}

function byName(list: Json[]): Map<string, Json> {
  return new Map(list.map((c) => [`${c.type}:${c.name}`, c]));
}

function deployList(): RESTPostAPIApplicationCommandsJSONBody[] {
  return [
    new SlashCommandBuilder()
      .setName('ping')
      .setDescription('Replies with pong')
      .addStringOption((o) => o.setName('message').setDescription('What to echo').setRequired(false).setMaxLength(100))
      .toJSON(),
    new SlashCommandBuilder()
      .setName('config')
      .setDescription('Configure the bot')
      .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
      .addSubcommand((s) =>
        s
          .setName('set')
          .setDescription('Set a value')
          .addStringOption((o) =>
            o
              .setName('key')
              .setDescription('The key')
              .setRequired(true)
              .addChoices({ name: 'Prefix', value: 'prefix' }),
          )
          .addIntegerOption((o) => o.setName('value').setDescription('The value').setMinValue(0).setMaxValue(10)),
      )
      .addSubcommandGroup((g) =>
        g
          .setName('roles')
          .setDescription('Role settings')
          .addSubcommand((s) =>
            s
              .setName('add')
              .setDescription('Add a role')
              .addRoleOption((o) => o.setName('role').setDescription('Role').setRequired(true)),
          ),
      )
      .toJSON(),
    new ContextMenuCommandBuilder().setName('User Info').setType(ApplicationCommandType.User).toJSON(),
    new ContextMenuCommandBuilder().setName('Quote Message').setType(ApplicationCommandType.Message).toJSON(),
  ];
}

describe('deploy flow with @discordjs/rest and @discordjs/builders', () => {
  let server: TestServer;
  let rest: REST;

  before(async () => {
    server = withSchemaChecks(await startServer());
    rest = restFor(server);
  });
  after(async () => {
    disposeRest(rest);
    await server.close();
  });

  test('PUT the guild list, then list it: every field of the v10 command object', async () => {
    const body = deployList();
    const put = (await rest.put(Routes.applicationGuildCommands(DEMO_APP_ID, TEST_GUILD_ID), { body })) as Json[];
    assertWireCommands(put, GUILD);
    assert.deepEqual(
      put.map((c) => c.name),
      body.map((c) => c.name),
    );
    const named = byName(put);
    const ping = named.get('1:ping')!;
    assert.equal(ping.default_member_permissions, null);
    assert.equal(ping.nsfw, false);
    assert.equal(ping.description, 'Replies with pong');
    assert.equal(ping.version, ping.version.toString());
    assert.deepEqual(ping.options, [
      {
        type: 3,
        name: 'message',
        name_localizations: null,
        description: 'What to echo',
        description_localizations: null,
        required: false,
        max_length: 100,
      },
    ]);
    const config = named.get('1:config')!;
    assert.equal(config.default_member_permissions, String(PermissionFlagsBits.ManageGuild));
    assert.equal(config.options[0].type, 1);
    assert.equal(config.options[0].options[0].choices[0].value, 'prefix');
    assert.equal(config.options[1].type, 2);
    assert.equal(config.options[1].options[0].options[0].type, 8);
    for (const key of ['2:User Info', '3:Quote Message']) {
      const menu = named.get(key)!;
      assert.equal(menu.description, '', `${key}: description ""`);
      assert.equal(menu.default_member_permissions, null);
      assert.equal(menu.nsfw, false);
    }

    const listed = (await rest.get(Routes.applicationGuildCommands(DEMO_APP_ID, TEST_GUILD_ID))) as Json[];
    assertWireCommands(listed, { ...GUILD, view: 'list' });
    assert.deepEqual(
      listed.map((c) => [c.id, c.version, c.name]).sort(),
      put.map((c) => [c.id, c.version, c.name]).sort(),
    );
    const withDictionaries = (await rest.get(Routes.applicationGuildCommands(DEMO_APP_ID, TEST_GUILD_ID), {
      query: new URLSearchParams({ with_localizations: 'true' }),
    })) as Json[];
    assertWireCommands(withDictionaries, GUILD);
    for (const command of put) {
      const one = await rest.get(Routes.applicationGuildCommand(DEMO_APP_ID, TEST_GUILD_ID, command.id));
      assertWireCommand(one, GUILD);
      assert.deepEqual(one, command);
    }
  });

  test('PUT the global list: contexts and integration_types on every global command', async () => {
    const body = [
      new SlashCommandBuilder().setName('help').setDescription('Shows help').toJSON(),
      new SlashCommandBuilder()
        .setName('profile')
        .setDescription('Shows a profile')
        .setIntegrationTypes(ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall)
        .setContexts(InteractionContextType.Guild, InteractionContextType.BotDM, InteractionContextType.PrivateChannel)
        .setNSFW(true)
        .toJSON(),
      new ContextMenuCommandBuilder().setName('Report').setType(ApplicationCommandType.Message).toJSON(),
    ];
    const put = (await rest.put(Routes.applicationCommands(DEMO_APP_ID), { body })) as Json[];
    assertWireCommands(put, GLOBAL);
    const named = byName(put);
    const profile = named.get('1:profile')!;
    assert.deepEqual([...profile.integration_types].sort(), [0, 1]);
    assert.deepEqual([...profile.contexts].sort(), [0, 1, 2]);
    assert.equal(profile.nsfw, true);
    // Without integration_types the app's own (GUILD_INSTALL and USER_INSTALL for the demo app).
    assert.ok(named.get('1:help')!.integration_types.length > 0);
    assert.equal(named.get('3:Report')!.description, '');

    const listed = (await rest.get(Routes.applicationCommands(DEMO_APP_ID))) as Json[];
    assertWireCommands(listed, { ...GLOBAL, view: 'list' });
    assert.deepEqual(listed.map((c) => c.id).sort(), put.map((c) => c.id).sort());
    // The guild list is a different scope: untouched by the global PUT.
    const guildList = (await rest.get(Routes.applicationGuildCommands(DEMO_APP_ID, TEST_GUILD_ID))) as Json[];
    assert.ok(guildList.every((c) => c.guild_id === TEST_GUILD_ID));
  });

  test('POST: 201 when new, 200 with the same id on the same name; version moves only on a change', async () => {
    const route = Routes.applicationGuildCommands(DEMO_APP_ID, TEST_GUILD_ID);
    const echo = new SlashCommandBuilder().setName('echo').setDescription('Echoes').toJSON();
    const viaRest = (await rest.post(route, { body: echo })) as Json;
    assertWireCommand(viaRest, GUILD);

    // The same name again, unchanged: 200, same id, same version.
    const again = await server.request('POST', route, { auth: BOT, body: echo });
    assert.equal(again.status, 200);
    assertWireCommand(again.body, GUILD);
    assert.equal(again.body.id, viaRest.id);
    assert.equal(again.body.version, viaRest.version);

    // The same name with a new description: 200, same id, a new (later) version.
    const changed = await server.request('POST', route, { auth: BOT, body: { ...echo, description: 'Echoes back' } });
    assert.equal(changed.status, 200);
    assertWireCommand(changed.body, GUILD);
    assert.equal(changed.body.id, viaRest.id);
    assert.notEqual(changed.body.version, viaRest.version);
    assert.ok(BigInt(changed.body.version) > BigInt(viaRest.version), 'versions increase');

    // A new name: 201.
    const created = await server.request('POST', route, {
      auth: BOT,
      body: new SlashCommandBuilder().setName('echo2').setDescription('Echoes twice').toJSON(),
    });
    assert.equal(created.status, 201);
    assertWireCommand(created.body, GUILD);
    assert.notEqual(created.body.id, viaRest.id);

    // Same name, other type: a separate command (uniqueness is per type).
    const menu = await server.request('POST', route, {
      auth: BOT,
      body: new ContextMenuCommandBuilder().setName('echo').setType(ApplicationCommandType.User).toJSON(),
    });
    assert.equal(menu.status, 201);
    assert.notEqual(menu.body.id, viaRest.id);
    assert.equal(menu.body.description, '');

    const global = await server.request('POST', Routes.applicationCommands(DEMO_APP_ID), { auth: BOT, body: echo });
    assert.equal(global.status, 201, 'a global command may share a guild command name');
    assertWireCommand(global.body, GLOBAL);
  });

  test('PATCH: provided fields replace; identical content keeps the version', async () => {
    const created = (await rest.post(Routes.applicationGuildCommands(DEMO_APP_ID, TEST_GUILD_ID), {
      body: new SlashCommandBuilder()
        .setName('patchme')
        .setDescription('Before')
        .addStringOption((o) => o.setName('text').setDescription('Text'))
        .toJSON(),
    })) as Json;
    const route = Routes.applicationGuildCommand(DEMO_APP_ID, TEST_GUILD_ID, created.id);

    const patched = (await rest.patch(route, { body: { description: 'After' } })) as Json;
    assertWireCommand(patched, GUILD);
    assert.equal(patched.id, created.id);
    assert.equal(patched.description, 'After');
    assert.equal(patched.options.length, 1, 'options not provided: kept');
    assert.notEqual(patched.version, created.version);

    const same = (await rest.patch(route, { body: { description: 'After' } })) as Json;
    assert.equal(same.version, patched.version, 'an identical PATCH keeps the version');

    // discord.js sends the whole command, `type` included: the equal type is ignored.
    const whole = (await rest.patch(route, {
      body: {
        ...new SlashCommandBuilder().setName('patchme').setDescription('After').toJSON(),
        options: patched.options,
      },
    })) as Json;
    assert.equal(whole.version, patched.version, 'the whole unchanged definition keeps the version');

    const cleared = (await rest.patch(route, { body: { options: [] } })) as Json;
    assert.ok(cleared.options === undefined || cleared.options.length === 0, 'options replaced whole');
    assert.notEqual(cleared.version, patched.version);

    const fetched = await rest.get(route);
    assert.deepEqual(fetched, cleared);
  });

  test('DELETE: 204, then 10063 and gone from the list', async () => {
    const created = (await rest.post(Routes.applicationCommands(DEMO_APP_ID), {
      body: new SlashCommandBuilder().setName('doomed').setDescription('Soon gone').toJSON(),
    })) as Json;
    const route = Routes.applicationCommand(DEMO_APP_ID, created.id);
    const raw = await server.request('DELETE', route, { auth: BOT });
    assert.equal(raw.status, 204);
    assert.equal(raw.text, '');

    await assert.rejects(rest.get(route), (error: unknown) => {
      assert.ok(error instanceof DiscordAPIError);
      assert.equal(error.status, 404);
      assert.equal(error.code, 10063);
      return true;
    });
    const listed = (await rest.get(Routes.applicationCommands(DEMO_APP_ID))) as Json[];
    assert.ok(!listed.some((c) => c.id === created.id));

    // Through the library too.
    const other = (await rest.post(Routes.applicationCommands(DEMO_APP_ID), {
      body: new SlashCommandBuilder().setName('doomed2').setDescription('Soon gone').toJSON(),
    })) as Json;
    await rest.delete(Routes.applicationCommand(DEMO_APP_ID, other.id));
    const missing = await server.request('DELETE', Routes.applicationCommand(DEMO_APP_ID, other.id), { auth: BOT });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 10063);
    assertErrorBody(missing.status, missing.body);
  });
});

describe('bulk overwrite semantics (docs/v10-behaviour.md#endpoints)', () => {
  let server: TestServer;
  let rest: REST;
  const route = Routes.applicationGuildCommands(DEMO_APP_ID, TEST_GUILD_ID);

  before(async () => {
    server = withSchemaChecks(await startServer());
    rest = restFor(server);
  });
  after(async () => {
    disposeRest(rest);
    await server.close();
  });

  const slash = (name: string, description = `The ${name} command`) =>
    new SlashCommandBuilder().setName(name).setDescription(description).toJSON();

  test('match by id keeps the id on a rename; by name otherwise; unchanged keeps version; the rest deleted', async () => {
    const first = (await rest.put(route, { body: [slash('alpha'), slash('beta'), slash('gamma')] })) as Json[];
    assertWireCommands(first, GUILD);
    const [alpha, beta, gamma] = first as [Json, Json, Json];

    const second = (await rest.put(route, {
      body: [{ ...slash('alpha-renamed'), id: alpha.id }, slash('beta'), slash('delta')],
    })) as Json[];
    assertWireCommands(second, GUILD);
    const named = byName(second);
    assert.equal(second.length, 3);
    const renamed = named.get('1:alpha-renamed')!;
    assert.equal(renamed.id, alpha.id, 'matched by id: the rename keeps the id');
    assert.notEqual(renamed.version, alpha.version, 'a rename is a change');
    assert.equal(named.get('1:beta')!.id, beta.id, 'matched by name and type');
    assert.equal(named.get('1:beta')!.version, beta.version, 'unchanged: version kept');
    const delta = named.get('1:delta')!;
    assert.ok(![alpha.id, beta.id, gamma.id].includes(delta.id), 'a new command gets a new id');

    const listed = (await rest.get(route)) as Json[];
    assert.deepEqual(listed.map((c) => c.id).sort(), second.map((c) => c.id).sort());
    assert.ok(!listed.some((c) => c.id === gamma.id), 'unmatched gamma deleted');
    const gone = await server.request('GET', Routes.applicationGuildCommand(DEMO_APP_ID, TEST_GUILD_ID, gamma.id), {
      auth: BOT,
    });
    assert.equal(gone.status, 404);
    assert.equal(gone.body.code, 10063);

    // The same list again: nothing changes, every id and version kept.
    const third = (await rest.put(route, {
      body: [{ ...slash('alpha-renamed'), id: alpha.id }, slash('beta'), slash('delta')],
    })) as Json[];
    assert.deepEqual(third.map((c) => [c.id, c.version]).sort(), second.map((c) => [c.id, c.version]).sort());
  });

  test('two commands swap names by id in one list: both ids kept', async () => {
    const first = (await rest.put(route, { body: [slash('left', 'Left'), slash('right', 'Right')] })) as Json[];
    const left = byName(first).get('1:left')!;
    const right = byName(first).get('1:right')!;
    const swapped = (await rest.put(route, {
      body: [
        { ...slash('right', 'Left'), id: left.id },
        { ...slash('left', 'Right'), id: right.id },
      ],
    })) as Json[];
    assertWireCommands(swapped, GUILD);
    const named = byName(swapped);
    assert.equal(named.get('1:right')!.id, left.id);
    assert.equal(named.get('1:left')!.id, right.id);
    const listed = (await rest.get(route)) as Json[];
    assert.deepEqual(
      listed.map((c) => [c.id, c.name]).sort(),
      [
        [left.id, 'right'],
        [right.id, 'left'],
      ].sort(),
    );
  });

  test('matching by name is within the type: a USER command of the same name is another command', async () => {
    const first = (await rest.put(route, { body: [slash('report')] })) as Json[];
    const chat = first[0]!;
    const second = (await rest.put(route, {
      body: [new ContextMenuCommandBuilder().setName('report').setType(ApplicationCommandType.User).toJSON()],
    })) as Json[];
    assert.equal(second.length, 1);
    assert.equal(second[0]!.type, 2);
    assert.notEqual(second[0]!.id, chat.id, 'the CHAT_INPUT command is not matched by a USER item');
    const both = (await rest.put(route, {
      body: [
        slash('report'),
        new ContextMenuCommandBuilder().setName('report').setType(ApplicationCommandType.User).toJSON(),
      ],
    })) as Json[];
    assert.equal(both.length, 2);
    assert.equal(byName(both).get('2:report')!.id, second[0]!.id, 'the USER command kept by name and type');
  });

  test('an empty list deletes every command of the scope', async () => {
    await rest.put(route, { body: [slash('one'), slash('two')] });
    const emptied = (await rest.put(route, { body: [] })) as Json[];
    assert.deepEqual(emptied, []);
    assert.deepEqual(await rest.get(route), []);
  });

  test('atomic: one invalid item refuses the whole list and changes nothing', async () => {
    const before = (await rest.put(route, { body: [slash('keep1'), slash('keep2')] })) as Json[];
    const refused = await server.request('PUT', route, {
      auth: BOT,
      body: [slash('keep1', 'A new description'), slash('new-one'), { type: 1, description: 'no name' }],
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 50035);
    assertErrorBody(refused.status, refused.body);
    assert.ok(refused.body.errors?.['2'], 'the error tree points at the bad item');
    const after = (await rest.get(route, { query: new URLSearchParams({ with_localizations: 'true' }) })) as Json[];
    assert.deepEqual(after, before);
  });
});

describe('the entry point command (code 50240)', () => {
  let server: TestServer;
  let rest: REST;
  const route = Routes.applicationCommands(ACTIVITY_APP_ID);

  before(async () => {
    server = withSchemaChecks(await startServer());
    rest = restFor(server, ACTIVITY_BOT_TOKEN);
  });
  after(async () => {
    disposeRest(rest);
    await server.close();
  });

  test('the Activity app has its "Launch" PRIMARY_ENTRY_POINT command, handler 2', async () => {
    const list = (await rest.get(route, { query: new URLSearchParams({ with_localizations: 'true' }) })) as Json[];
    assertWireCommands(list, { applicationId: ACTIVITY_APP_ID, guildId: null });
    const launch = list.filter((c) => c.type === 4);
    assert.equal(launch.length, 1);
    assert.equal(launch[0]!.name, 'Launch');
    assert.equal(launch[0]!.handler, 2);
  });

  test('a global bulk PUT without the entry point: 400, 50240, nothing changed', async () => {
    const before = (await rest.get(route, { query: new URLSearchParams({ with_localizations: 'true' }) })) as Json[];
    await assert.rejects(
      rest.put(route, { body: [new SlashCommandBuilder().setName('play').setDescription('Play').toJSON()] }),
      (error: unknown) => {
        assert.ok(error instanceof DiscordAPIError);
        assert.equal(error.status, 400);
        assert.equal(error.code, 50240);
        assert.match(error.message, /Entry Point/);
        return true;
      },
    );
    const raw = await server.request('PUT', route, { auth: `Bot ${ACTIVITY_BOT_TOKEN}`, body: [] });
    assert.equal(raw.status, 400);
    assert.equal(raw.body.code, 50240);
    assertErrorBody(raw.status, raw.body);
    const after = await rest.get(route, { query: new URLSearchParams({ with_localizations: 'true' }) });
    assert.deepEqual(after, before);
  });

  test('a global bulk PUT that includes the entry point keeps it (same id, same version)', async () => {
    const list = (await rest.get(route)) as Json[];
    const launch = list.find((c) => c.type === 4)!;
    const put = (await rest.put(route, {
      body: [launch, new SlashCommandBuilder().setName('play').setDescription('Play').toJSON()],
    })) as Json[];
    assertWireCommands(put, { applicationId: ACTIVITY_APP_ID, guildId: null });
    const kept = put.find((c) => c.type === 4)!;
    assert.equal(kept.id, launch.id);
    assert.equal(kept.version, launch.version);
    assert.equal(kept.handler, 2);
    assert.equal(put.length, 2);
  });

  test('the entry point may be deleted on its own; then a bulk PUT without it is fine', async () => {
    const list = (await rest.get(route)) as Json[];
    const launch = list.find((c) => c.type === 4)!;
    const deleted = await server.request('DELETE', Routes.applicationCommand(ACTIVITY_APP_ID, launch.id), {
      auth: `Bot ${ACTIVITY_BOT_TOKEN}`,
    });
    assert.equal(deleted.status, 204);
    const put = (await rest.put(route, {
      body: [new SlashCommandBuilder().setName('play').setDescription('Play').toJSON()],
    })) as Json[];
    assert.deepEqual(
      put.map((c) => c.type),
      [1],
    );
  });

  test('a guild bulk PUT is not concerned by the global entry point', async () => {
    const put = (await rest.put(Routes.applicationGuildCommands(ACTIVITY_APP_ID, TEST_GUILD_ID), {
      body: [new SlashCommandBuilder().setName('play').setDescription('Play').toJSON()],
    })) as Json[];
    assertWireCommands(put, { applicationId: ACTIVITY_APP_ID, guildId: TEST_GUILD_ID });
  });
});

describe('discord.js Client: application.commands without a gateway', () => {
  // `client.login()` needs the gateway, which slashd does not serve yet. The commands manager
  // only needs `client.application` (set from READY) and `client.rest`: both are set by hand
  // here, exactly as READY would, and the manager's own requests go to slashd.
  let server: TestServer;
  let client: Client;

  before(async () => {
    server = withSchemaChecks(await startServer());
    client = new Client({ intents: [], rest: { api: `${server.url}/api` } });
    client.token = DEMO_BOT_TOKEN;
    client.rest.setToken(DEMO_BOT_TOKEN);
    // The constructor is private in the typings; READY makes it the same way.
    const Application = ClientApplication as unknown as new (
      client: Client,
      data: { id: string; flags: number },
    ) => ClientApplication;
    client.application = new Application(client, { id: DEMO_APP_ID, flags: 0 });
  });
  after(async () => {
    await client.destroy();
    await server.close();
  });

  // discord.js reads `install_params.scopes` whenever the key is present: v10 omits the key when
  // the app has no install params, it never sends null.
  test('application.fetch() reads GET /applications/@me', async () => {
    const app = await client.application!.fetch();
    assert.equal(app.id, DEMO_APP_ID);
    assert.equal(app.name, 'Demo Bot');
  });

  test('application.commands.set / fetch / create / edit / delete', async () => {
    const commands = client.application!.commands;
    const set = await commands.set([
      { name: 'hello', description: 'Says hello', options: [{ type: 3, name: 'who', description: 'Who' }] },
      { name: 'Inspect', type: ApplicationCommandType.User },
      new SlashCommandBuilder().setName('built').setDescription('From a builder').toJSON(),
    ]);
    assert.equal(set.size, 3);
    const hello = set.find((c) => c.name === 'hello')!;
    assert.equal(hello.applicationId, DEMO_APP_ID);
    assert.equal(hello.options[0]!.name, 'who');

    const fetched = await commands.fetch();
    assert.deepEqual([...fetched.keys()].sort(), [...set.keys()].sort());

    const versionBefore = hello.version; // the manager patches its cached object in place
    const edited = await commands.edit(hello.id, { description: 'Says hello politely' });
    assert.equal(edited.id, hello.id);
    assert.equal(edited.description, 'Says hello politely');
    assert.notEqual(edited.version, versionBefore);

    const guildSet = await commands.set([{ name: 'local', description: 'A guild command' }], TEST_GUILD_ID);
    assert.equal(guildSet.size, 1);
    assert.equal(guildSet.first()!.guildId, TEST_GUILD_ID);

    const created = await commands.create({ name: 'extra', description: 'Extra' });
    await commands.delete(created.id);
    const after = await commands.fetch({ force: true });
    assert.ok(!after.has(created.id));
    assert.equal(after.size, 3);
  });
});
