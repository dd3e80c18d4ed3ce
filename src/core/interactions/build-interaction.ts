// STUB written by the lead so the server compiles meanwhile; helper-4 replaces this file.
import type { Application, Channel, Guild, Member, Message, User } from '../world/types.js';
import type { StoredCommand } from '../commands/model.js';
import type { CheckedInvocation, InvocationKind } from './invocation-types.js';
export interface InteractionInput {
  id: string; token: string; kind: InvocationKind; app: Application; command: StoredCommand; checked: CheckedInvocation;
  user: User; guild: Guild | null; member: Member | null; channel: Channel; locale: string;
  messages: Message[]; users: User[];
  authorizingIntegrationOwners: Record<string, string>; context: 0 | 1 | 2; appPermissions: string; memberPermissions: string | null;
}
export function buildInteraction(input: InteractionInput): Record<string, unknown> {
  return { id: input.id, application_id: input.app.id, type: input.kind === 'command' ? 2 : 4, token: input.token, version: 1,
    data: { id: input.command.id, name: input.command.definition.name, type: input.command.definition.type, options: input.checked.options } };
}
