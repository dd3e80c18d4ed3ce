/** The package entry: start slashd in-process, and the pieces a host program or a test needs with it. */
export { createSlashd, type Slashd, type SlashdConfig } from './app.js';
export { parseWorld } from './core/world/parse.js';
export type * from './core/world/types.js';
export type { CommandStore, InteractionStore, NodeLeaseStore, Store, WorldStore } from './store/store.js';
export type { EventBus } from './events/bus.js';
export { ApiError } from './core/io/errors.js';
export { formErrorTree, type Issue, type IssuePath } from './core/io/issue.js';
export * as validation from './core/validation/index.js';
