/**
 * What a run exercised of the app under test: its commands, subcommands and options (each written
 * as a user types it: `/config set`, `/weather city`), the components its messages showed (by
 * custom_id), and which of them no step used; with what the server saw the bot do (v10 routes,
 * gateway events received, routes slashd does not serve).
 */
import { ApplicationCommandOptionType, ApplicationCommandType } from 'discord-api-types/v10';

/** A command as v10 returns it (the fields coverage reads). */
export interface CoverageCommand {
  name: string;
  type?: number;
  options?: CoverageOption[];
}

interface CoverageOption {
  type: number;
  name: string;
  options?: CoverageOption[];
}

/** What one interaction step exercised. */
export interface Exercised {
  /** Command name, then subcommand group and subcommand when given. */
  commandPath: string[];
  /** The options given at that level. */
  options: string[];
}

export interface RouteUse {
  method: string;
  /** The route template (`/channels/:channelId/messages`). */
  route: string;
  count: number;
}

export interface EventUse {
  type: string;
  count: number;
}

/** What the server recorded of the app (GET /admin/applications/{id}/usage). */
export interface AppUsage {
  routes: RouteUse[];
  unserved: RouteUse[];
  events: EventUse[];
}

export interface Coverage {
  application_id: string;
  /** Every command, subcommand and option of the app, as typed. */
  commands: string[];
  /** Those no step used. */
  never_invoked: string[];
  /** Components the bot's messages showed (custom_ids), and those no step used. */
  components: string[];
  never_clicked: string[];
  routes: RouteUse[];
  unserved: RouteUse[];
  events: EventUse[];
}

/** Each invocable path of a command and each option, as typed: `/config`, `/config set`, `/config set key`. */
export function commandItems(command: CoverageCommand): string[] {
  const base =
    (command.type ?? ApplicationCommandType.ChatInput) === ApplicationCommandType.ChatInput
      ? `/${command.name}`
      : command.name;
  const walk = (prefix: string, options: readonly CoverageOption[]): string[] =>
    options.flatMap((option) =>
      option.type === ApplicationCommandOptionType.Subcommand ||
      option.type === ApplicationCommandOptionType.SubcommandGroup
        ? [`${prefix} ${option.name}`, ...walk(`${prefix} ${option.name}`, option.options ?? [])]
        : [`${prefix} ${option.name}`],
    );
  return [base, ...walk(base, command.options ?? [])];
}

/** The items one invocation exercised: each level of its path and each option given. */
export function exercisedItems(exercised: Exercised, contextMenu = false): string[] {
  const [name, ...rest] = exercised.commandPath;
  if (name === undefined) return [];
  const base = contextMenu ? name : `/${name}`;
  const levels = rest.map((_, index) => [base, ...rest.slice(0, index + 1)].join(' '));
  const deepest = [base, ...rest].join(' ');
  return [base, ...levels, ...exercised.options.map((option) => `${deepest} ${option}`)];
}

export function computeCoverage(input: {
  applicationId: string;
  commands: readonly CoverageCommand[];
  exercised: ReadonlySet<string>;
  componentsSeen: ReadonlySet<string>;
  componentsUsed: ReadonlySet<string>;
  usage: AppUsage;
}): Coverage {
  const commands = [...new Set(input.commands.flatMap(commandItems))].sort();
  const components = [...input.componentsSeen].sort();
  return {
    application_id: input.applicationId,
    commands,
    never_invoked: commands.filter((item) => !input.exercised.has(item)),
    components,
    never_clicked: components.filter((id) => !input.componentsUsed.has(id)),
    routes: input.usage.routes,
    unserved: input.usage.unserved,
    events: input.usage.events,
  };
}

function uses(list: readonly RouteUse[]): string[] {
  return list.map((use) => `    ${use.method} ${use.route} ×${use.count}`);
}

export function coverageText(coverage: Coverage): string {
  const invoked = coverage.commands.length - coverage.never_invoked.length;
  const clicked = coverage.components.length - coverage.never_clicked.length;
  const lines = [
    `Coverage of application ${coverage.application_id}`,
    `  commands, subcommands and options: ${invoked} of ${coverage.commands.length} exercised`,
    ...coverage.never_invoked.map((item) => `    never: ${item}`),
    `  components shown: ${clicked} of ${coverage.components.length} used`,
    ...coverage.never_clicked.map((id) => `    never: ${id}`),
    `  v10 routes the bot called: ${coverage.routes.length}`,
    ...uses(coverage.routes),
    `  gateway events the bot received: ${coverage.events.map((event) => `${event.type} ×${event.count}`).join(', ') || 'none'}`,
    `  routes slashd does not serve, called by the bot: ${coverage.unserved.length}`,
    ...uses(coverage.unserved),
  ];
  return `${lines.join('\n')}\n`;
}
