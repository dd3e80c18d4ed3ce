/** Localized listings over HTTP (Localization): the requester's locale, fallbacks, dictionaries. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { injectServer, type TestServer } from './helpers/server.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import { BOT, DEMO_APP_ID, DEMO_CC_TOKEN, TEST_GUILD_ID } from './helpers/world.js';

const bot = BOT;
const globalPath = `/applications/${DEMO_APP_ID}/commands`;
const guildPath = `/applications/${DEMO_APP_ID}/guilds/${TEST_GUILD_ID}/commands`;

const localized = {
  name: 'greet',
  name_localizations: { fr: 'saluer', 'en-GB': 'greet-gb', 'es-ES': 'saludar', de: 'greet' },
  description: 'Say hello',
  description_localizations: { fr: 'Dire bonjour', 'en-US': 'Say hi' },
  options: [
    {
      type: 3,
      name: 'whom',
      name_localizations: { fr: 'qui' },
      description: 'Who to greet',
      description_localizations: { fr: 'Qui saluer' },
      choices: [{ name: 'Everyone', name_localizations: { fr: 'Tout le monde' }, value: 'all' }],
    },
  ],
};

describe('localized listings', () => {
  let server: TestServer;
  before(async () => {
    server = await injectServer();
    const put = await server.request('PUT', globalPath, {
      auth: bot,
      body: [localized, { name: 'plain', description: 'No localizations' }],
    });
    assert.equal(put.status, 200);
    const guildPut = await server.request('PUT', guildPath, { auth: bot, body: [localized] });
    assert.equal(guildPut.status, 200);
  });
  after(() => server.close());

  async function list(headers: Record<string, string>, query = '', path = globalPath, auth = bot) {
    const response = await server.request('GET', `${path}${query}`, { auth, headers });
    assert.equal(response.status, 200);
    for (const command of response.body) assertMatchesSchema('ApplicationCommandResponse', command);
    return response.body as Record<string, any>[];
  }

  it('returns name_localized and description_localized for X-Service-Locale, not the dictionaries', async () => {
    const [greet, plain] = await list({ 'x-service-locale': 'fr' });
    assert.equal(greet!.name, 'greet', 'the default name stays');
    assert.equal(greet!.name_localized, 'saluer');
    assert.equal(greet!.description_localized, 'Dire bonjour');
    assert.equal(greet!.name_localizations, undefined);
    assert.equal(greet!.description_localizations, undefined);
    assert.equal(greet!.options[0].name_localized, 'qui');
    assert.equal(greet!.options[0].description_localized, 'Qui saluer');
    assert.equal(greet!.options[0].choices[0].name_localized, 'Tout le monde');
    assert.equal('name_localized' in plain!, false, 'omitted when nothing applies');
  });

  it('accepts X-Discord-Locale as the same header', async () => {
    const [greet] = await list({ 'x-discord-locale': 'fr' });
    assert.equal(greet!.name_localized, 'saluer');
  });

  it('falls back en-US to en-GB, en-GB to en-US and es-419 to es-ES', async () => {
    const [us] = await list({ 'x-service-locale': 'en-US' });
    assert.equal(us!.name_localized, 'greet-gb');
    assert.equal(us!.description_localized, 'Say hi');
    const [gb] = await list({ 'x-service-locale': 'en-GB' });
    assert.equal(gb!.name_localized, 'greet-gb');
    assert.equal(gb!.description_localized, 'Say hi');
    const [latam] = await list({ 'x-service-locale': 'es-419' });
    assert.equal(latam!.name_localized, 'saludar');
    assert.equal('description_localized' in latam!, false);
  });

  it('drops a localization equal to the default', async () => {
    const [greet] = await list({ 'x-service-locale': 'de' });
    assert.equal('name_localized' in greet!, false);
    const [full] = await list({}, '?with_localizations=true');
    assert.equal(full!.name_localizations.de, undefined);
  });

  it('reads Accept-Language with q-values when no locale header is sent', async () => {
    const [greet] = await list({ 'accept-language': 'ja;q=0.2, fr;q=0.9, de;q=0.5' });
    assert.equal(greet!.name_localized, 'saluer');
  });

  it("uses the Bearer token user's settings locale last", async () => {
    // The client-credentials token acts for the owner, alice, whose locale is en-US.
    const [greet] = await list({}, '', globalPath, `Bearer ${DEMO_CC_TOKEN}`);
    assert.equal(greet!.name_localized, 'greet-gb');
    const [overridden] = await list({ 'x-service-locale': 'fr' }, '', globalPath, `Bearer ${DEMO_CC_TOKEN}`);
    assert.equal(overridden!.name_localized, 'saluer');
  });

  for (const flag of ['true', 'True', '1']) {
    it(`with_localizations=${flag} returns the full dictionaries instead`, async () => {
      const [greet] = await list({ 'x-service-locale': 'fr' }, `?with_localizations=${flag}`);
      assert.deepEqual(greet!.name_localizations, { fr: 'saluer', 'en-GB': 'greet-gb', 'es-ES': 'saludar' });
      assert.equal(greet!.name_localized, undefined);
      assert.equal(greet!.options[0].choices[0].name_localizations.fr, 'Tout le monde');
    });
  }

  for (const flag of ['false', 'False', '0']) {
    it(`with_localizations=${flag} keeps the localized view`, async () => {
      const [greet] = await list({ 'x-service-locale': 'fr' }, `?with_localizations=${flag}`);
      assert.equal(greet!.name_localized, 'saluer');
    });
  }

  it('localizes guild listings the same way', async () => {
    const [greet] = await list({ 'x-service-locale': 'fr' }, '', guildPath);
    assert.equal(greet!.name_localized, 'saluer');
    assert.equal(greet!.guild_id, TEST_GUILD_ID);
  });

  it('single-command responses carry the dictionaries', async () => {
    const [greet] = await list({}, '?with_localizations=true');
    const single = await server.request('GET', `${globalPath}/${greet!.id}`, {
      auth: bot,
      headers: { 'x-service-locale': 'fr' },
    });
    assert.equal(single.status, 200);
    assert.equal(single.body.name_localizations.fr, 'saluer');
    assert.equal(single.body.name_localized, undefined);
  });
});
