/**
 * Turns on V8's linear-time regular expression engine, which scenario patterns are compiled for
 * (src/core/scenarios/patterns.ts), before any scenario is read. The flag only adds the `l` flag
 * of RegExp: no pattern without it runs differently.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--enable-experimental-regexp-engine');
