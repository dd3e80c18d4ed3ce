/** What every `slashd` command shares: its output, its exit codes, and how bad arguments are told. */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export interface Output {
  log(line: string): void;
  error(line: string): void;
}

/** Success. */
export const EXIT_OK = 0;
/** The command ran and the answer is no (invalid commands, a refused or failed interaction). */
export const EXIT_FAILED = 1;
/** The command line is wrong, or a file or server it names cannot be used. */
export const EXIT_USAGE = 2;

export const USAGE = `usage:
  slashd --version | --help | COMMAND --help
  slashd serve [--host H] [--port P] [--db PATH|:memory:|postgres://...] [--world FILE] [--demo [--reset-demo]]
               [--admin-token T] [--log-level LEVEL] [--log-format pretty|json]
               [--request-timeout MS] [--endpoint-policy default|public-only] [--allow-private-endpoints]
               [--gateway-url ws(s)://HOST[:PORT]] [--metrics-token T] [--cache-mb MB]
               [--rate-limits sandbox|v10|off] [--daily-command-creates N|off]
               [--trust-proxy off|HOPS|ADDR[/BITS],...]
               [--redis redis://...] [--redis-prefix P] [--db-schema S] [--db-pool-max N]
               [--db-statement-timeout MS] [--snapshot-at-start] [--drain-timeout MS]
               [--public-url http(s)://HOST[:PORT]] [--allowed-hosts NAME,.DOMAIN,...|*]
               [--auth-throttle FAILURES/SECONDS|off]
      environment: SLASHD_HOST, SLASHD_PORT, SLASHD_DB, SLASHD_WORLD, SLASHD_DEMO=1,
                   SLASHD_ADMIN_TOKEN, SLASHD_LOG_LEVEL, SLASHD_REQUEST_TIMEOUT_MS,
                   SLASHD_ENDPOINT_POLICY, SLASHD_ALLOW_PRIVATE_ENDPOINTS=1, SLASHD_GATEWAY_URL,
                   SLASHD_METRICS_TOKEN, SLASHD_REDIS_URL, SLASHD_REDIS_PREFIX, SLASHD_DB_SCHEMA,
                   SLASHD_DB_POOL_MAX, SLASHD_DB_STATEMENT_TIMEOUT_MS,
                   SLASHD_CACHE_MB (the read caches' size, default 96), SLASHD_RATE_LIMITS,
                   SLASHD_TRUST_PROXY, SLASHD_SNAPSHOT_AT_START=1, SLASHD_DRAIN_TIMEOUT_MS,
                   SLASHD_PUBLIC_URL (the OpenID Connect issuer, docs/oauth2.md),
                   SLASHD_ALLOWED_HOSTS, SLASHD_AUTH_THROTTLE
      many nodes: --db postgres://... (schema S, default slashd; --admin-token required) and
      --redis redis://... (keys and channels under P, default slashd:); SIGTERM drains the node,
      cutting what is still connected after --drain-timeout (default 20000 ms)
      rate limits: sandbox (default; v10's headers, generous limits), v10 (the published
      numbers, to test a client library) or off (docs/rate-limits.md); command creates per
      scope and day: v10's 200, --daily-command-creates N or off (SLASHD_DAILY_COMMAND_CREATES)
      behind a load balancer, --trust-proxy names it (hop count, or its addresses and CIDRs) so
      each client's address comes from X-Forwarded-For; off by default (docs/scaling.md)
      interactions endpoints may be public or loopback addresses by default (docs/security.md)
      Host headers: IP addresses, localhost and the hosts of --public-url and --gateway-url are
      answered; other names only when --allowed-hosts lists them (DNS rebinding, docs/security.md)
      failed tokens and secrets: 20 a minute per address (--auth-throttle), then 429 (docs/security.md)
      the demo world (--demo) is merged at the first start only: a restart keeps what the admin API,
      the console and the apps changed; --reset-demo merges it again
      tests: --snapshot-at-start (default with --db :memory:) lets POST /admin/reset return to
      the state at start-up; POST /admin/snapshots and .../restore work either way (docs/testing.md)
      LEVEL: fatal, error, warn (default), info, debug, trace or silent; logs are readable
      lines on a terminal and JSON lines otherwise
  slashd migrate [--db PATH|postgres://...] [--db-schema S]
      applies the database's schema migrations and exits (SLASHD_DB, SLASHD_DB_SCHEMA)
  slashd backup --to FILE [--db PATH]
      a consistent copy of a SQLite database, taken while slashd serves it (SQLite's VACUUM INTO);
      PostgreSQL: pg_dump (docs/operations.md)
  slashd invoke --as USER --channel CHANNEL [--guild GUILD] [--target ID] '/command [sub] opt:value ...'
               [--attach OPTION=FILE ...] [--url URL] [--admin-token T] [--wait SECONDS]
      acts as USER (name or id) in CHANNEL (name or id) and prints the app's answer; --attach
      uploads FILE as the value of the ATTACHMENT option OPTION
  slashd join CODE --user USER [--url URL] [--admin-token T]
      USER (name or id) accepts the invite CODE and joins its guild, as the client does
  slashd world [--url URL] [--admin-token T]
      prints the users (with tokens), guilds, channels and applications of a running slashd
  slashd lint FILE [--guild] [--world FILE --app ID]
      checks a bulk overwrite body offline
  slashd diff FILE --app ID [--guild ID] [--url URL] [--token T] [--server slashd|v10] [--json]
      what a bulk overwrite with FILE would change (nothing is written); exit 1 when something would
  slashd deploy FILE --app ID [--guild ID] [--url URL] [--token T] [--server slashd|v10]
      the bulk overwrite, sent only when something would change (bot token: --token or SLASHD_BOT_TOKEN)
  slashd test SCENARIOS... [--bot 'COMMAND'] [--world FILE] [--app NAME|ID] [--url URL --admin-token T]
              [--reporter text|tap|junit] [--output FILE] [--coverage FILE] [--ready-timeout SECONDS]
      replays scenario files (or folders of *.yaml) against the bot under test, on a slashd
      started here (or at --url); --bot starts the bot with SLASHD_URL, SLASHD_REST_URL,
      SLASHD_API_URL, SLASHD_BOT_TOKEN and SLASHD_APPLICATION_ID set; exit 1 when a scenario failed
  client commands read SLASHD_URL (default http://127.0.0.1:3210) and the admin token from
  --admin-token, --admin-token-file FILE or SLASHD_ADMIN_TOKEN; without them, the token kept in
  ./data/admin-token (where \`npm start\` keeps it; \`slashd serve\` never prints a token)`;

/** The part of USAGE about one command (its lines, up to the next command), or undefined. */
export function commandUsage(command: string): string | undefined {
  const lines = USAGE.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`  slashd ${command} `) || line === `  slashd ${command}`);
  if (start === -1) return undefined;
  const end = lines.findIndex((line, index) => index > start && /^ {2}\S/.test(line));
  return ['usage:', ...lines.slice(start, end === -1 ? undefined : end)].join('\n');
}

/** Arguments that ask for a command's usage wherever they stand (`slashd lint --help`). */
export const HELP_ARGS: ReadonlySet<string> = new Set(['--help', '-h']);

/** "1 command", "2 commands". */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** A wrong command line: the message, then (unless told otherwise) the usage; exit status 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly showUsage = true,
  ) {
    super(message);
  }
}

/** node:util's parseArgs, its errors (unknown option, missing value) turned into usage errors. */
export function parseCommandLine<T extends ParseArgsConfig['options']>(
  args: string[],
  options: T,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    const parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: parsed.values, positionals: parsed.positionals };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** Prints a usage error the way every command does and gives its exit status. */
export function reportUsageError(command: string, error: UsageError, out: Output, usage = USAGE): number {
  out.error(`slashd ${command}: ${error.message}`);
  if (error.showUsage) out.error(usage);
  return EXIT_USAGE;
}
