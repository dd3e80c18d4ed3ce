/** A bulk overwrite entry: the id the client named (if any) and the command it describes. */
import type { CommandDefinition } from '../commands/model.js';

export interface BulkItem {
  /** The command this entry replaces, when the client names it (a rename keeps its id). */
  id: string | null;
  definition: CommandDefinition;
}

/** An entry while the body is being read: its definition is missing when the item was unreadable. */
export interface BulkItemDraft {
  id: string | null;
  definition: CommandDefinition | undefined;
}
