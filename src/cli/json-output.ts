/**
 * With `--log-format json`, everything `slashd serve` prints is a JSON line, its own lines (the
 * banner, draining, stopped, a start-up failure) as well as pino's: a log shipper parses every
 * line. The fields are pino's (`level` 30 info, 50 error; `time` in ms; `msg`).
 */
import { hostname } from 'node:os';
import type { Output } from './usage.js';

/** pino's numeric levels. */
const INFO = 30;
const ERROR = 50;

function record(level: number, text: string): string {
  return JSON.stringify({ level, time: Date.now(), pid: process.pid, hostname: hostname(), msg: text.trim() });
}

/** `out`, each line written as one JSON record. */
export function jsonLines(out: Output): Output {
  return {
    log: (line) => out.log(record(INFO, line)),
    error: (line) => out.error(record(ERROR, line)),
  };
}
