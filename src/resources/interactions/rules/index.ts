/** The pure core of invoking commands: checking invocations, building interactions, checking answers, messages. */
export * from '../../messages/rules/limits.js';
export * from './check-invocation.js';
export * from './build-interaction.js';
export * from './responses.js';
export * from '../../messages/rules/messages.js';
