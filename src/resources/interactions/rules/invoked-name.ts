/**
 * v10's name of one use of a command, as a message's `interaction.name` carries it and clients
 * show it ("alice used /fruit pick"): the command's name, then the subcommand group and the
 * subcommand the invocation took, when it took any.
 */
import { OptionType } from '../../../core/commands/model.js';
import { isRecord } from '../../../core/io/read.js';

/** A subcommand group holds subcommands: at most two levels below the command. */
const MOST_BRANCH_LEVELS = 2;

export function invokedName(commandName: string, options: unknown): string {
  const path = [commandName];
  let level = options;
  for (let depth = 0; depth < MOST_BRANCH_LEVELS && Array.isArray(level); depth++) {
    const first: unknown = level[0];
    if (!isRecord(first) || typeof first.name !== 'string') break;
    if (first.type !== OptionType.Subcommand && first.type !== OptionType.SubcommandGroup) break;
    path.push(first.name);
    level = first.options;
  }
  return path.join(' ');
}
