/** Names: the CHAT_INPUT pattern in lowercase, free-form context-menu names, lengths in code points. */
import { describe } from 'node:test';
import {
  APPLICATION_COMMAND_INVALID_NAME as INVALID_NAME,
  BASE_TYPE_BAD_LENGTH as BAD_LENGTH,
  BASE_TYPE_REQUIRED as REQUIRED,
  STRING_TYPE_CONVERT,
} from '../src/core/io/codes.js';
import { runCases, EMBEDDED as EMBEDDED_APP } from './helpers/validation-cases.js';

const chat = (name: unknown) => ({ name, description: 'd' });
const user = (name: unknown) => ({ type: 2, name });
const withOption = (name: unknown) => ({
  name: 'cmd',
  description: 'd',
  options: [{ type: 3, name, description: 'd' }],
});
/** U+20000, a letter outside the BMP: one code point, two UTF-16 units. */
const ASTRAL_LETTER = '\u{20000}';

describe('CHAT_INPUT command names', () => {
  runCases([
    { name: 'one character is the shortest', body: chat('a'), expect: [] },
    { name: 'empty is too short', body: chat(''), expect: [[['name'], BAD_LENGTH]] },
    { name: '32 characters is the longest', body: chat('a'.repeat(32)), expect: [] },
    { name: '33 characters is too long', body: chat('a'.repeat(33)), expect: [[['name'], BAD_LENGTH]] },
    { name: '32 astral letters count as 32', body: chat(ASTRAL_LETTER.repeat(32)), expect: [] },
    { name: '33 astral letters count as 33', body: chat(ASTRAL_LETTER.repeat(33)), expect: [[['name'], BAD_LENGTH]] },
    { name: 'hyphen, underscore, apostrophe and digits', body: chat("a-b_c'd9"), expect: [] },
    { name: 'digits only', body: chat('123'), expect: [] },
    { name: 'a space', body: chat('a b'), expect: [[['name'], INVALID_NAME]] },
    { name: 'punctuation outside the pattern', body: chat('a!b'), expect: [[['name'], INVALID_NAME]] },
    { name: 'a dot', body: chat('a.b'), expect: [[['name'], INVALID_NAME]] },
    { name: 'an emoji', body: chat('a👋'), expect: [[['name'], INVALID_NAME]] },
    { name: 'an uppercase ASCII letter', body: chat('Ab'), expect: [[['name'], INVALID_NAME]] },
    { name: 'lowercase accented letters', body: chat('ñandú'), expect: [] },
    { name: 'an uppercase accented letter', body: chat('Ñandú'), expect: [[['name'], INVALID_NAME]] },
    { name: 'ß has no lowercase variant of its own', body: chat('straße'), expect: [] },
    { name: 'İ lowercases to something else', body: chat('İstanbul'), expect: [[['name'], INVALID_NAME]] },
    { name: 'a titlecase digraph', body: chat('ǅ'), expect: [[['name'], INVALID_NAME]] },
    { name: 'uncased letters (CJK)', body: chat('日本語'), expect: [] },
    { name: 'Devanagari with combining marks', body: chat('नमस्ते'), expect: [] },
    { name: 'Thai with combining marks', body: chat('สวัสดี'), expect: [] },
    { name: 'lowercase Cyrillic', body: chat('привет'), expect: [] },
    { name: 'uppercase Cyrillic', body: chat('Привет'), expect: [[['name'], INVALID_NAME]] },
    {
      name: 'too long and uppercase: both reported',
      body: chat('A'.repeat(33)),
      expect: [
        [['name'], BAD_LENGTH],
        [['name'], INVALID_NAME],
      ],
    },
    { name: 'missing', body: { description: 'd' }, expect: [[['name'], REQUIRED]] },
    { name: 'null', body: chat(null), expect: [[['name'], REQUIRED]] },
    { name: 'a number', body: chat(5), expect: [[['name'], STRING_TYPE_CONVERT]] },
  ]);
});

describe('option names follow the CHAT_INPUT rule', () => {
  const at = ['options', 0, 'name'];
  runCases([
    { name: 'one character', body: withOption('a'), expect: [] },
    { name: 'empty', body: withOption(''), expect: [[at, BAD_LENGTH]] },
    { name: '32 characters', body: withOption('o'.repeat(32)), expect: [] },
    { name: '33 characters', body: withOption('o'.repeat(33)), expect: [[at, BAD_LENGTH]] },
    { name: 'uppercase', body: withOption('Opt'), expect: [[at, INVALID_NAME]] },
    { name: 'a space', body: withOption('my opt'), expect: [[at, INVALID_NAME]] },
    {
      name: 'missing',
      body: { name: 'cmd', description: 'd', options: [{ type: 3, description: 'd' }] },
      expect: [[at, REQUIRED]],
    },
    { name: 'a list', body: withOption(['a']), expect: [[at, STRING_TYPE_CONVERT]] },
  ]);
});

describe('USER, MESSAGE and PRIMARY_ENTRY_POINT names', () => {
  const entryPoint = (name: string) => ({ type: 4, name, handler: 2 });
  runCases([
    { name: 'mixed case and spaces', body: user('Show Profile'), expect: [] },
    { name: 'emoji and punctuation', body: user('👋 Wave, hello!'), expect: [] },
    { name: 'one character', body: user('X'), expect: [] },
    { name: 'empty', body: user(''), expect: [[['name'], BAD_LENGTH]] },
    { name: '32 characters', body: user('U'.repeat(32)), expect: [] },
    { name: '33 characters', body: user('U'.repeat(33)), expect: [[['name'], BAD_LENGTH]] },
    { name: '32 astral letters', body: user(ASTRAL_LETTER.repeat(32)), expect: [] },
    { name: '33 astral letters', body: user(ASTRAL_LETTER.repeat(33)), expect: [[['name'], BAD_LENGTH]] },
    { name: 'MESSAGE: mixed case', body: { type: 3, name: 'Quote Message' }, expect: [] },
    { name: 'MESSAGE: 33 characters', body: { type: 3, name: 'M'.repeat(33) }, expect: [[['name'], BAD_LENGTH]] },
    { name: 'PRIMARY_ENTRY_POINT: mixed case', body: entryPoint('Launch Game'), expect: [], ctx: EMBEDDED_APP },
    {
      name: 'PRIMARY_ENTRY_POINT: 33 characters',
      body: entryPoint('L'.repeat(33)),
      expect: [[['name'], BAD_LENGTH]],
      ctx: EMBEDDED_APP,
    },
    { name: 'missing', body: { type: 2 }, expect: [[['name'], REQUIRED]] },
  ]);
});

describe('localized names obey the rule of their default', () => {
  const chatLocalized = (fr: string) => ({ name: 'cmd', description: 'd', name_localizations: { fr } });
  const userLocalized = (fr: string) => ({ type: 2, name: 'Profile', name_localizations: { fr } });
  const at = ['name_localizations', 'fr'];
  runCases([
    { name: 'CHAT_INPUT: lowercase', body: chatLocalized('commande'), expect: [] },
    { name: 'CHAT_INPUT: uppercase', body: chatLocalized('Commande'), expect: [[at, INVALID_NAME]] },
    { name: 'CHAT_INPUT: a space', body: chatLocalized('ma commande'), expect: [[at, INVALID_NAME]] },
    { name: 'CHAT_INPUT: 32 characters', body: chatLocalized('c'.repeat(32)), expect: [] },
    { name: 'CHAT_INPUT: 33 characters', body: chatLocalized('c'.repeat(33)), expect: [[at, BAD_LENGTH]] },
    { name: 'CHAT_INPUT: empty', body: chatLocalized(''), expect: [[at, BAD_LENGTH]] },
    { name: 'USER: mixed case with spaces', body: userLocalized('Voir le profil'), expect: [] },
    { name: 'USER: 33 characters', body: userLocalized('P'.repeat(33)), expect: [[at, BAD_LENGTH]] },
    {
      name: 'option: uppercase',
      body: {
        name: 'cmd',
        description: 'd',
        options: [{ type: 3, name: 'o', description: 'd', name_localizations: { de: 'Opt' } }],
      },
      expect: [[['options', 0, 'name_localizations', 'de'], INVALID_NAME]],
    },
  ]);
});
