/**
 * A user invokes a command by the name they see (issue 23, item 13): bob's locale is French, so his
 * picker shows `/bonjour monde nom: couleur:` for the command `/hello world name: color:`, and
 * `sandbox.invoke('bob', 'general', '/bonjour ...')` works, as does the default name. The app gets
 * the default names, as v10 sends them. The resolution is the CLI's (`slashd invoke`), shared.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { byTypedName, findCommand, type IndexCommand } from '../src/cli/invoke/resolve-command.js';
import { createSandbox, type Sandbox } from '../src/testing/index.js';
import { startRegisteredApp, type AppServer, type Json } from './helpers/app-server.js';

const HELLO = {
  name: 'hello',
  name_localizations: { fr: 'bonjour' },
  description: 'Says hello',
  options: [
    {
      type: 1,
      name: 'world',
      name_localizations: { fr: 'monde' },
      description: 'To someone',
      options: [
        { type: 3, name: 'name', name_localizations: { fr: 'nom' }, description: 'Who', required: true },
        {
          type: 3,
          name: 'color',
          name_localizations: { fr: 'couleur' },
          description: 'Which color',
          choices: [
            { name: 'Red', name_localizations: { fr: 'Rouge' }, value: 'red' },
            { name: 'Blue', name_localizations: { fr: 'Bleu' }, value: 'blue' },
          ],
        },
      ],
    },
  ],
};

describe('sandbox.invoke by the name the user sees', () => {
  let sandbox: Sandbox;
  let app: AppServer;

  before(async () => {
    sandbox = await createSandbox();
    const bot = sandbox.bot();
    const deployed = await fetch(`${sandbox.apiUrl}/applications/${bot.id}/commands`, {
      method: 'PUT',
      headers: { authorization: `Bot ${bot.token}`, 'content-type': 'application/json' },
      body: JSON.stringify([HELLO]),
    });
    assert.equal(deployed.status, 200, await deployed.text());
    app = await startRegisteredApp(sandbox.apiUrl, bot.token, (interaction: Json) => ({
      inline: { type: 4, data: { content: JSON.stringify(interaction.data.options) } },
    }));
  });
  after(async () => {
    await app?.close();
    await sandbox?.close();
  });

  test('bob types his names: /bonjour monde nom:Alice couleur:Rouge; the app gets the default names', async () => {
    const outcome = await sandbox.invoke('bob', 'general', '/bonjour monde nom:Alice couleur:Rouge');
    assert.equal(outcome.state, 'responded', JSON.stringify(outcome));
    const data = app.interactions().at(-1)!.data;
    assert.equal(data.name, 'hello');
    assert.deepEqual(data.options, [
      {
        type: 1,
        name: 'world',
        options: [
          { type: 3, name: 'name', value: 'Alice' },
          { type: 3, name: 'color', value: 'red' },
        ],
      },
    ]);
  });

  test("bob may type the default names too; alice, who sees only those, cannot type bob's", async () => {
    const outcome = await sandbox.invoke('bob', 'general', '/hello world name:Bob color:Blue');
    assert.equal(outcome.state, 'responded', JSON.stringify(outcome));
    assert.equal(app.interactions().at(-1)!.data.options[0].options[1].value, 'blue');
    await assert.rejects(
      sandbox.invoke('alice', 'general', '/bonjour monde nom:x'),
      /no slash command 'bonjour'.*hello/,
    );
  });
});

describe('byTypedName and findCommand (the CLI resolution)', () => {
  const command = (id: string, name: string, localized?: string): IndexCommand => ({
    id,
    application_id: '1',
    version: id,
    type: 1,
    name,
    ...(localized === undefined ? {} : { name_localized: localized }),
  });

  test('the shown name first, then the default name, then either without case', () => {
    const list = [command('1', 'hello', 'bonjour'), command('2', 'bonjour', 'salut')];
    const ids = (typed: string) => byTypedName(list, typed).map((c) => c.id);
    // 'bonjour' is what command 1 shows: it wins over command 2's default name, which is not shown.
    assert.deepEqual(ids('bonjour'), ['1']);
    assert.deepEqual(ids('salut'), ['2']);
    assert.deepEqual(ids('hello'), ['1']);
    assert.deepEqual(ids('HELLO'), ['1']);
    assert.deepEqual(ids('Salut'), ['2']);
    assert.deepEqual(ids('coucou'), []);
  });

  test('a missing command lists the names the user sees', () => {
    assert.throws(() => findCommand([command('1', 'hello', 'bonjour')], 'salut', false), /they are: bonjour$/);
    assert.equal(findCommand([command('1', 'hello', 'bonjour')], 'Bonjour', false).id, '1');
  });
});
