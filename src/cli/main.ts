/** The `slashd` command: `serve` and `lint`. */
import { runLint } from './lint.js';
import { runServe, type Output } from './serve.js';

const USAGE = `usage:
  slashd serve [--host H] [--port P] [--db PATH|:memory:] [--world FILE] [--demo] [--admin-token T]
      environment: SLASHD_HOST, SLASHD_PORT, SLASHD_DB, SLASHD_WORLD, SLASHD_DEMO=1, SLASHD_ADMIN_TOKEN
  slashd lint FILE [--guild] [--world FILE --app ID]`;

const console_: Output = { log: (line) => console.log(line), error: (line) => console.error(line) };

export async function main(argv: string[], out: Output = console_): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return runServe(rest, out);
    case 'lint':
      return runLint(rest, out);
    default:
      out.error(USAGE);
      return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
  }
}
