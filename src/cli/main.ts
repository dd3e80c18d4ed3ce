/** The `slashd` command: `serve`, `migrate`, `backup`, `invoke`, `join`, `world`, `lint`, `diff`, `deploy` and `test`; `--help` and `--version`. */
import { runBackup } from './backup.js';
import { runDeploy, runDiff } from './deploy.js';
import { runInvoke } from './invoke/run.js';
import { runJoin } from './join.js';
import { runLint } from './lint.js';
import { runMigrate } from './migrate.js';
import { runServe } from './serve.js';
import { runTest } from './test.js';
import { commandUsage, EXIT_OK, EXIT_USAGE, HELP_ARGS, USAGE, type Output } from './usage.js';
import { slashdVersion } from './version.js';
import { runWorld } from './world.js';

export type { Output } from './usage.js';

const console_: Output = { log: (line) => console.log(line), error: (line) => console.error(line) };

type Command = (args: string[], out: Output) => Promise<number>;

const COMMANDS: Readonly<Record<string, Command>> = {
  serve: (args, out) => runServe(args, out),
  migrate: (args, out) => runMigrate(args, out),
  backup: (args, out) => runBackup(args, out),
  invoke: (args, out) => runInvoke(args, out),
  join: (args, out) => runJoin(args, out),
  world: (args, out) => runWorld(args, out),
  lint: (args, out) => runLint(args, out),
  diff: (args, out) => runDiff(args, out),
  deploy: (args, out) => runDeploy(args, out),
  test: (args, out) => runTest(args, out),
};

const HELP = new Set(['help', ...HELP_ARGS]);
const VERSION = new Set(['version', '--version', '-V']);

export async function main(argv: string[], out: Output = console_): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== undefined && HELP.has(command)) {
    out.log(USAGE);
    return EXIT_OK;
  }
  if (command !== undefined && VERSION.has(command)) {
    out.log(`slashd ${slashdVersion()}`);
    return EXIT_OK;
  }
  const run = command !== undefined && Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (command !== undefined && run) {
    // `slashd lint --help`: that command's part of the usage, whatever else the line holds.
    if (rest.some((arg) => HELP_ARGS.has(arg))) {
      out.log(commandUsage(command) ?? USAGE);
      return EXIT_OK;
    }
    return run(rest, out);
  }
  // Without a command there is nothing to do: the usage, and the status of a wrong command line.
  if (command !== undefined) out.error(`slashd: unknown command '${command}'`);
  out.error(USAGE);
  return EXIT_USAGE;
}
