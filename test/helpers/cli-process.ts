/**
 * The `slashd` command as a newcomer runs it: real child processes from the repository's root,
 * their output read line by line. Every wait is bounded by a generous safety net, never by timing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './openapi.js';

export const ROOT = repoRoot();
export const CLI = join(ROOT, 'bin', 'slashd.js');
/** Safety net for a child to print what is awaited: far above what a loaded machine needs. */
export const CHILD_WAIT_MS = 30_000;

export interface RunningChild {
  process: ChildProcess;
  /** Everything printed on stdout so far. */
  stdout(): string;
  /** Everything printed on stderr so far. */
  stderr(): string;
  /** Resolves with stdout once a line matches (rejects if the child exits first, or after the safety net). */
  waitForLine(pattern: RegExp): Promise<RegExpExecArray>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
  /** SIGINT (Ctrl-C in its terminal), then the exit code. */
  interrupt(): Promise<number | null>;
}

const running = new Set<ChildProcess>();

/** Kills every child still running (for `after` hooks). */
export function killAll(): void {
  for (const child of running) child.kill('SIGKILL');
}

export function startChild(command: string, args: string[], env: Record<string, string> = {}): RunningChild {
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  return {
    process: child,
    stdout: () => out,
    stderr: () => err,
    waitForLine(pattern) {
      return new Promise((resolve, reject) => {
        const check = () => {
          for (const line of out.split('\n')) {
            const match = pattern.exec(line);
            if (match) return finish(() => resolve(match));
          }
        };
        const timer = setTimeout(
          () =>
            finish(() =>
              reject(new Error(`no line ${pattern} within ${CHILD_WAIT_MS} ms; stdout:\n${out}\nstderr:\n${err}`)),
            ),
          CHILD_WAIT_MS,
        );
        const onExit = () =>
          finish(() =>
            reject(new Error(`the child exited before printing ${pattern}; stdout:\n${out}\nstderr:\n${err}`)),
          );
        const finish = (then: () => void) => {
          clearTimeout(timer);
          child.stdout.off('data', check);
          child.off('exit', onExit);
          then();
        };
        child.stdout.on('data', check);
        child.on('exit', onExit);
        check();
      });
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
    async interrupt() {
      if (child.exitCode === null) child.kill('SIGINT');
      return exited;
    },
  };
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end. */
export function runToEnd(command: string, args: string[], env: Record<string, string> = {}): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `${args.join(' ')} did not finish within ${CHILD_WAIT_MS} ms; stdout:\n${stdout}\nstderr:\n${stderr}`,
        ),
      );
    }, CHILD_WAIT_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A printed shell command line as argv: plain words, and single-quoted words (with `'\''`). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let quoted = false;
  let escaped = false;
  let started = false;
  for (const character of line) {
    if (escaped) {
      current += character;
      escaped = false;
    } else if (quoted) {
      if (character === "'") quoted = false;
      else current += character;
    } else if (character === "'" || character === '\\') {
      if (character === "'") quoted = true;
      else escaped = true;
      started = true;
    } else if (character === ' ') {
      if (started || current) words.push(current);
      current = '';
      started = false;
    } else {
      current += character;
    }
  }
  if (started || current) words.push(current);
  return words;
}

/** `node x.js a b` as the child to spawn: this node binary runs it. */
export function nodeCommand(line: string): { command: string; args: string[] } {
  const [first, ...args] = shellWords(line);
  if (first !== 'node') throw new Error(`expected a node command line, got: ${line}`);
  return { command: process.execPath, args };
}
