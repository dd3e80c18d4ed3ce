/**
 * Why a command is not there for the user: the verdict of slashd's permission engine for it in
 * the channel (GET /channels/{id}/application-command-index/explain, the console's "Why not?"),
 * so `invoke` says "hidden: role Moderator denied at command level" rather than only "not found".
 */
import { CommandType } from '../../core/commands/model.js';
import type { JsonAnswer } from '../client.js';

interface ExplainedCommand {
  command: { name: string; type?: number; name_localized?: string };
  verdict: 'shown' | 'hidden' | 'refused';
  text: string;
}

interface ExplainedApp {
  name: string;
  commands: ExplainedCommand[];
}

/** The verdict lines for commands of this name and kind that are not simply shown; none when there are none. */
export function verdictLines(answer: JsonAnswer, name: string, contextMenu: boolean): string[] {
  if (answer.status !== 200 || typeof answer.body !== 'object' || answer.body === null) return [];
  const apps = (answer.body.applications ?? []) as ExplainedApp[];
  const wanted = name.toLowerCase();
  const kindMatches = (type: number) =>
    contextMenu ? type === CommandType.User || type === CommandType.Message : type === CommandType.ChatInput;
  const lines: string[] = [];
  for (const app of apps) {
    for (const explained of app.commands) {
      const { command } = explained;
      const names = [command.name, command.name_localized].filter((n): n is string => typeof n === 'string');
      if (explained.verdict === 'shown' || !kindMatches(command.type ?? CommandType.ChatInput)) continue;
      if (!names.some((n) => n.toLowerCase() === wanted)) continue;
      const label =
        (command.type ?? CommandType.ChatInput) === CommandType.ChatInput ? `/${command.name}` : command.name;
      lines.push(`${explained.verdict}: ${label} of ${app.name}: ${explained.text}`);
    }
  }
  return lines;
}
