/** What validation needs to know beyond the body: the scope and the application's traits. */

/** The application's traits that command rules depend on (world file, applications[]). */
export interface AppTraits {
  /** Application flags bit set; EMBEDDED (1 << 17) allows a PRIMARY_ENTRY_POINT command. */
  flags: number;
  /** The integration types the app supports; a global command's must be a subset. */
  integration_types: number[];
  /** An app with discovery enabled may not have age-restricted commands. */
  discoverable: boolean;
}

export interface ValidationContext {
  scope: 'global' | 'guild';
  app: AppTraits;
}

/** The outcome of validating a body (the one Result of ../io/result.ts). */
export type { Result } from '../io/result.js';

/** How one command body is read, which differs per endpoint. */
export interface CommandRules extends ValidationContext {
  /** Which defaults fill omitted `integration_types` and `contexts` (v10 API, JSON params). */
  readonly defaults: 'create' | 'bulk';
}
