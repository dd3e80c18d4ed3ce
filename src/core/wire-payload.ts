import type { Locale } from 'discord-api-types/v10';

/**
 * What the wire builders of the core return. Each payload is checked against its v10 shape (from
 * discord-api-types, or a shape of our own where that one does not fit what v10 sends; each says
 * why) with `satisfies`, so a misspelt or missing field fails to compile. The returned type is the
 * shape joined with a plain record: the adapters (services, gateway) still hand payloads on as
 * `Record<string, unknown>` (issue 22 types the wire step by step), and an interface of
 * discord-api-types is not one.
 */
export type WirePayload<T> = T & Record<string, unknown>;

/**
 * A locale as the wire types spell it. The world file names locales as strings and slashd passes
 * them on as given; discord-api-types types a locale as its enum of v10's list.
 */
export function wireLocale(locale: string): Locale {
  return locale as Locale;
}
