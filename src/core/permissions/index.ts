/** The permission core: pure functions over the world and stored overwrites (docs/permissions.md). */
export * from './bits.js';
export * from './channels.js';
export * from './install.js';
export * from './channel-permissions.js';
export * from './role-hierarchy.js';
export * from './command-permissions.js';
export * from './validate-permissions.js';
export * from './engine.js';
export * from './overwrite-index.js';
export * from './fast-access.js';
export * from './invocation.js';
export * from './visible-commands.js';
export * from './who-may-edit.js';
export * from './flag-names.js';
export * from './explain.js';
export * from './explain-wording.js';
