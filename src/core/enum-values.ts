/**
 * The numbers of a numeric TypeScript enum (discord-api-types' `ButtonStyle`, `GatewayIntentBits`...).
 * `Object.values` of such an enum also holds its names, since the compiled enum maps each number back
 * to its name: only the numbers are values of the wire.
 */
export function enumValues<E extends number>(enumObject: Readonly<Record<string, E | string>>): E[] {
  return Object.values(enumObject).filter((value): value is E => typeof value === 'number');
}
