/**
 * The app's answer as the user would see it in the client, as plain text: the message's content,
 * each embed's title, description and fields, and its components (buttons, menus, text).
 */
import { ComponentType, InteractionResponseType } from 'discord-api-types/v10';
import { EPHEMERAL_FLAG, hasFlag } from '../../resources/messages/rules/messages.js';

type Json = Record<string, any>;

/** Callback types that carry a message (docs/v10-behaviour.md#interactions). */
const MESSAGE_CALLBACKS = new Set<unknown>([
  InteractionResponseType.ChannelMessageWithSource,
  InteractionResponseType.UpdateMessage,
]);

/** The select menus' component types. */
const SELECT_MENUS = new Set<unknown>([
  ComponentType.StringSelect,
  ComponentType.UserSelect,
  ComponentType.RoleSelect,
  ComponentType.MentionableSelect,
  ComponentType.ChannelSelect,
]);

const INDENT = '  ';

function indent(lines: string[], depth = 1): string[] {
  return lines.map((line) => `${INDENT.repeat(depth)}${line}`);
}

function textLines(text: unknown): string[] {
  return typeof text === 'string' && text !== '' ? text.split('\n') : [];
}

export function renderEmbed(embed: Json): string[] {
  const lines: string[] = [`[embed] ${typeof embed.title === 'string' ? embed.title : '(no title)'}`];
  lines.push(...indent(textLines(embed.description)));
  for (const field of Array.isArray(embed.fields) ? (embed.fields as Json[]) : []) {
    lines.push(...indent([`${String(field.name)}: ${String(field.value)}`]));
  }
  if (typeof embed.footer?.text === 'string') lines.push(...indent([`— ${embed.footer.text}`]));
  return lines;
}

function renderComponent(component: Json): string[] {
  if (component.type === ComponentType.ActionRow || Array.isArray(component.components)) {
    const children = (component.components as Json[] | undefined) ?? [];
    const inline = children
      .map(renderComponent)
      .filter((lines) => lines.length === 1)
      .map((lines) => lines[0]);
    if (inline.length === children.length && component.type === ComponentType.ActionRow) return [inline.join('  ')];
    return children.flatMap(renderComponent);
  }
  if (component.type === ComponentType.Button)
    return [
      `[button: ${String(component.label ?? component.emoji?.name ?? '')}${component.url ? ` → ${String(component.url)}` : ''}]`,
    ];
  if (SELECT_MENUS.has(component.type))
    return [`[menu: ${String(component.placeholder ?? component.custom_id ?? '')}]`];
  if (component.type === ComponentType.TextInput)
    return [`[text input: ${String(component.label ?? component.custom_id ?? '')}]`];
  // Display components (components v2) carry their text in `content`.
  return textLines(component.content);
}

/** A message's visible parts, one line each (empty when it shows nothing). */
export function renderMessage(message: Json): string[] {
  const lines = [...textLines(message.content)];
  for (const embed of Array.isArray(message.embeds) ? (message.embeds as Json[]) : [])
    lines.push(...renderEmbed(embed));
  for (const component of Array.isArray(message.components) ? (message.components as Json[]) : [])
    lines.push(...renderComponent(component));
  return lines;
}

/** The first answer (an interaction response), as the user sees it. */
export function renderResponse(response: Json): string[] {
  const data: Json = response.data ?? {};
  if (MESSAGE_CALLBACKS.has(response.type)) return renderMessage(data);
  if (response.type === InteractionResponseType.Modal) {
    return [
      `[modal: ${String(data.title ?? '')}]`,
      ...indent(((data.components as Json[] | undefined) ?? []).flatMap(renderComponent)),
    ];
  }
  if (response.type === InteractionResponseType.LaunchActivity) return ['[the app launched its activity]'];
  return [`[answer of type ${String(response.type)}]`];
}

export function isEphemeral(message: Json): boolean {
  return hasFlag(Number(message.flags ?? 0), EPHEMERAL_FLAG);
}
