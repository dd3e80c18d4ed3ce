/**
 * Why a rule refuses an action, by name, and the v10 error each is answered with: the rules of the
 * resources return a `Refusal` (pure), the services throw `refuse(refusal)`. One table, so one
 * reason has one name and one error everywhere.
 */
import { apiError, type ErrorName } from './io/errors.js';

/** Every reason a rule refuses an action. */
export type Refusal = keyof typeof REFUSAL_ERRORS;

/**
 * Each refusal's v10 error. v10 answers a missing permission, the role hierarchy and an
 * administrator's timeout alike (50013).
 */
const REFUSAL_ERRORS = {
  'missing-permission': 'MissingPermissions',
  hierarchy: 'MissingPermissions',
  administrator: 'MissingPermissions',
  'wrong-channel-type': 'WrongChannelType',
  archived: 'ThreadArchived',
  locked: 'ThreadLocked',
} as const satisfies Readonly<Record<string, ErrorName>>;

/** The v10 error a refusal is answered with. */
export function refusalError(refusal: Refusal): ErrorName {
  return REFUSAL_ERRORS[refusal];
}

/** Throws v10's error for the refusal. */
export function refuse(refusal: Refusal): never {
  throw apiError(refusalError(refusal));
}
