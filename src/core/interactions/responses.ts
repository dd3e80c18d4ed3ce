// STUB written by the lead so the server compiles meanwhile; helper-4 replaces this file.
import type { Issue } from '../errors.js';
import type { OptionDefinition } from '../commands/model.js';
export interface ResponseContext { interactionType: 2 | 4; appHasActivities: boolean; focusedOption: OptionDefinition | null }
export function checkCallback(body: unknown, _ctx: ResponseContext): { ok: true; value: { type: number; data?: Record<string, unknown> } } | { ok: false; issues: Issue[] } {
  return { ok: true, value: body as { type: number; data?: Record<string, unknown> } };
}
export function checkMessageData(body: unknown, _opts: { forDeferred?: boolean; partial?: boolean }): { ok: true; value: Record<string, unknown> } | { ok: false; issues: Issue[] } {
  return { ok: true, value: body as Record<string, unknown> };
}
