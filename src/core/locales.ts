/** Locales (docs/v10-behaviour.md#contexts-integration-types-and-locales) and how a requester's locale is chosen and applied. */

/** The 32 locales v10 accepts as localization keys. */
export const SUPPORTED_LOCALES = [
  'id',
  'da',
  'de',
  'en-GB',
  'en-US',
  'es-ES',
  'es-419',
  'fr',
  'hr',
  'it',
  'lt',
  'hu',
  'nl',
  'no',
  'pl',
  'pt-BR',
  'ro',
  'fi',
  'sv-SE',
  'vi',
  'tr',
  'cs',
  'el',
  'bg',
  'ru',
  'uk',
  'hi',
  'th',
  'zh-CN',
  'ja',
  'zh-TW',
  'ko',
] as const;

export type Locale = (typeof SUPPORTED_LOCALES)[number];

const SUPPORTED = new Set<string>(SUPPORTED_LOCALES);
const BY_LOWERCASE = new Map(SUPPORTED_LOCALES.map((locale) => [locale.toLowerCase(), locale]));

export function isSupportedLocale(value: string): value is Locale {
  return SUPPORTED.has(value);
}

/** Where a locale key is missing, the one to try next (v10 API, Localization rule 4). */
export const LOCALE_FALLBACK: Readonly<Partial<Record<Locale, Locale>>> = {
  'en-US': 'en-GB',
  'en-GB': 'en-US',
  'es-419': 'es-ES',
};

export type LocalizationMap = Partial<Record<string, string>>;

/** The localized value for `locale`, following the fallback; undefined when none applies. */
export function pickLocalized(map: LocalizationMap | null | undefined, locale: Locale | null): string | undefined {
  if (!map || !locale) return undefined;
  const direct = map[locale];
  if (direct !== undefined) return direct;
  const fallback = LOCALE_FALLBACK[locale];
  return fallback ? map[fallback] : undefined;
}

/** Maps a language tag in any case ("EN-us", "es-419", "fr-CA") to a supported locale, if one fits. */
export function matchLocaleTag(tag: string): Locale | null {
  const lower = tag.trim().toLowerCase();
  if (!lower) return null;
  const exact = BY_LOWERCASE.get(lower);
  if (exact) return exact;
  const language = lower.split('-')[0] ?? '';
  if (language === 'en') return 'en-US';
  if (language === 'es') return lower.startsWith('es-4') ? 'es-419' : 'es-ES';
  if (language === 'zh') return lower.includes('tw') || lower.includes('hant') ? 'zh-TW' : 'zh-CN';
  if (language === 'pt') return 'pt-BR';
  if (language === 'sv') return 'sv-SE';
  if (language === 'nb' || language === 'nn') return 'no';
  return BY_LOWERCASE.get(language) ?? null;
}

/** The best supported locale of an Accept-Language header, honouring q-values (q=0 excludes). */
export function localeFromAcceptLanguage(header: string): Locale | null {
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of ranked) {
    const locale = matchLocaleTag(tag);
    if (locale) return locale;
  }
  return null;
}

export interface LocaleSources {
  serviceLocale?: string | undefined;
  discordLocale?: string | undefined;
  acceptLanguage?: string | undefined;
  userLocale?: string | null | undefined;
}

/**
 * The requester's locale: X-Service-Locale, then X-Discord-Locale, then Accept-Language, then the
 * user's settings locale (docs/v10-behaviour.md#contexts-integration-types-and-locales). Null when none names a supported locale.
 */
export function resolveRequesterLocale(sources: LocaleSources): Locale | null {
  for (const header of [sources.serviceLocale, sources.discordLocale]) {
    const locale = header ? matchLocaleTag(header) : null;
    if (locale) return locale;
  }
  if (sources.acceptLanguage) {
    const locale = localeFromAcceptLanguage(sources.acceptLanguage);
    if (locale) return locale;
  }
  return sources.userLocale ? matchLocaleTag(sources.userLocale) : null;
}
