import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  localeFromAcceptLanguage,
  matchLocaleTag,
  pickLocalized,
  resolveRequesterLocale,
  SUPPORTED_LOCALES,
} from '../src/core/locales.js';

describe('requester locale', () => {
  const cases: [string, Parameters<typeof resolveRequesterLocale>[0], string | null][] = [
    [
      'X-Service-Locale first',
      { serviceLocale: 'fr', discordLocale: 'de', acceptLanguage: 'ja', userLocale: 'ko' },
      'fr',
    ],
    [
      'X-Discord-Locale when X-Service-Locale is absent',
      { discordLocale: 'de', acceptLanguage: 'ja', userLocale: 'ko' },
      'de',
    ],
    ['Accept-Language next', { acceptLanguage: 'ja', userLocale: 'ko' }, 'ja'],
    ['the user settings locale last', { userLocale: 'ko' }, 'ko'],
    ['an unsupported header falls through', { serviceLocale: 'xx', userLocale: 'pl' }, 'pl'],
    ['none at all', {}, null],
    ['case does not matter', { serviceLocale: 'EN-us' }, 'en-US'],
  ];
  for (const [name, sources, expected] of cases) {
    it(name, () => assert.equal(resolveRequesterLocale(sources), expected));
  }

  it('Accept-Language honours q-values and skips q=0 and unknown tags', () => {
    assert.equal(localeFromAcceptLanguage('de;q=0.5, fr;q=0.9, ja;q=0.1'), 'fr');
    assert.equal(localeFromAcceptLanguage('fr;q=0, xx, it;q=0.2'), 'it');
    assert.equal(localeFromAcceptLanguage('*'), null);
    assert.equal(localeFromAcceptLanguage('en'), 'en-US');
    assert.equal(localeFromAcceptLanguage('es-MX'), 'es-ES');
    assert.equal(localeFromAcceptLanguage('es-419'), 'es-419');
    assert.equal(localeFromAcceptLanguage('pt-PT;q=0.8'), 'pt-BR');
  });

  it('every supported locale matches itself', () => {
    for (const locale of SUPPORTED_LOCALES) assert.equal(matchLocaleTag(locale), locale);
  });
});

describe('picking a localized value', () => {
  it('uses the exact key, then the fallback, else nothing', () => {
    assert.equal(pickLocalized({ 'en-GB': 'colour' }, 'en-US'), 'colour');
    assert.equal(pickLocalized({ 'en-US': 'color' }, 'en-GB'), 'color');
    assert.equal(pickLocalized({ 'es-ES': 'hola' }, 'es-419'), 'hola');
    assert.equal(pickLocalized({ 'es-419': 'hola' }, 'es-ES'), undefined, 'es-ES has no fallback');
    assert.equal(pickLocalized({ fr: 'salut' }, 'de'), undefined);
    assert.equal(pickLocalized(null, 'de'), undefined);
    assert.equal(pickLocalized({ de: 'hallo' }, null), undefined);
  });
});
