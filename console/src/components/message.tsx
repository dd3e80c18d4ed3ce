/**
 * One message as a user of the client sees it: author, "alice used /weather", markdown with
 * mentions, embeds, attachments, components (buttons and selects that can be used, and Components
 * V2 layouts, ./layout-components.tsx), "Only you can see this" for an ephemeral answer,
 * "… is thinking…" while a deferred answer is pending, and a webhook's message under the webhook's
 * name and avatar with a WEBHOOK tag.
 */
import type { ComponentChildren } from 'preact';
import { webHref } from '../links';
import { Markdown, type MentionNames } from '../markdown';
import { MessageFlag, type Json } from '../types';
import { colorOf, FileImage, LAYOUT_COMPONENT_TYPES, LayoutComponent } from './layout-components';
import { Reactions, type ReactionActions } from './reactions';
import { Poll, type PollActions } from './poll';

export interface MessageActions {
  /** A button clicked or a select chosen: the v10 MESSAGE_COMPONENT body is built by the caller. */
  component: (message: Json, component: Json, values: string[] | null) => void;
  /** The Apps menu of the message, or of a user (its author). */
  openMenu: (kind: 'message' | 'user', target: Json, anchor: HTMLElement) => void;
  dismiss: (messageId: string) => void;
  /** A message file's bytes, fetched with the user's token (slashd serves files to readers only). */
  fetchFile?: (url: string) => Promise<Blob>;
  /** The message's reactions, clickable: absent, they are not shown. */
  reactions?: ReactionActions;
  /** Votes in the message's poll: absent, the poll is shown without them. */
  polls?: PollActions;
  /** Premium buttons: their SKU's name, and their click (a purchase dialog). Absent, they are shown disabled. */
  premium?: PremiumActions;
}

export interface PremiumActions {
  /** The name of the application's SKU; null when the console does not know it. */
  skuName: (applicationId: string, skuId: string) => string | null;
  buy: (message: Json, component: Json) => void;
}

/** The application a message is of: its interaction's, else its author (a bot's id is its app's). */
function applicationOf(message: Json): string {
  return (message.application_id ?? message.author?.id ?? '') as string;
}

const BUTTON_STYLES: Record<number, string> = {
  1: 'primary',
  2: 'secondary',
  3: 'success',
  4: 'danger',
  5: 'link',
  6: 'premium',
};

function Embed({ embed, names }: { embed: Json; names: MentionNames }) {
  const titleHref = webHref(embed.url);
  const imageHref = webHref(embed.image?.url);
  return (
    <article class="embed" data-color={colorOf(embed.color)}>
      {embed.author?.name && <div class="embed-author">{embed.author.name}</div>}
      {embed.title &&
        (titleHref ? (
          <a class="embed-title" href={titleHref} target="_blank" rel="noopener noreferrer">
            {embed.title}
          </a>
        ) : (
          <div class="embed-title">{embed.title}</div>
        ))}
      {embed.description && <Markdown text={embed.description} names={names} />}
      {Array.isArray(embed.fields) && embed.fields.length > 0 && (
        <dl class="embed-fields">
          {embed.fields.map((field: Json, i: number) => (
            <div key={i} class={field.inline ? 'embed-field inline' : 'embed-field'}>
              <dt>{field.name}</dt>
              <dd>
                <Markdown text={String(field.value ?? '')} names={names} />
              </dd>
            </div>
          ))}
        </dl>
      )}
      {embed.image?.url &&
        (imageHref ? (
          <a class="embed-image" href={imageHref} target="_blank" rel="noopener noreferrer">
            image: {embed.image.url}
          </a>
        ) : (
          <span class="embed-image">image: {embed.image.url}</span>
        ))}
      {embed.footer?.text && <div class="embed-footer">{embed.footer.text}</div>}
    </article>
  );
}

function isShownImage(attachment: Json): boolean {
  return (
    typeof attachment.content_type === 'string' &&
    attachment.content_type.startsWith('image/') &&
    typeof attachment.width === 'number'
  );
}

function Attachment({
  attachment,
  fetchFile,
}: {
  attachment: Json;
  fetchFile?: ((url: string) => Promise<Blob>) | undefined;
}) {
  const size = typeof attachment.size === 'number' ? ` (${Math.ceil(attachment.size / 1024)} KB)` : '';
  const href = webHref(attachment.url);
  return (
    <div class="attachment">
      {fetchFile && isShownImage(attachment) && (
        <FileImage
          url={attachment.url as string}
          alt={(attachment.description as string | undefined) ?? (attachment.filename as string)}
          width={attachment.width as number}
          height={attachment.height as number}
          fetchFile={fetchFile}
        />
      )}
      <span aria-hidden="true">📎 </span>
      {href ? (
        <a href={href} target="_blank" rel="noopener noreferrer">
          {attachment.filename}
        </a>
      ) : (
        attachment.filename
      )}
      {size}
    </div>
  );
}

/** Select menus: string (3), user (5), role (6), mentionable (7), channel (8). */
const SELECT_TYPES = new Set([3, 5, 6, 7, 8]);

export interface SelectSources {
  users: { id: string; name: string }[];
  roles: { id: string; name: string }[];
  channels: { id: string; name: string; type: number }[];
}

function selectOptions(component: Json, sources: SelectSources): { value: string; label: string }[] {
  switch (component.type) {
    case 3:
      return (component.options ?? []).map((o: Json) => ({ value: String(o.value), label: String(o.label) }));
    case 5:
      return sources.users.map((u) => ({ value: u.id, label: `@${u.name}` }));
    case 6:
      return sources.roles.map((r) => ({ value: r.id, label: `@${r.name}` }));
    case 7:
      return [
        ...sources.users.map((u) => ({ value: u.id, label: `@${u.name}` })),
        ...sources.roles.map((r) => ({ value: r.id, label: `@${r.name}` })),
      ];
    case 8: {
      const types: number[] | undefined = component.channel_types;
      return sources.channels
        .filter((c) => !types || types.includes(c.type))
        .map((c) => ({ value: c.id, label: `#${c.name}` }));
    }
    default:
      return [];
  }
}

function Select({
  message,
  component,
  actions,
  sources,
}: {
  message: Json;
  component: Json;
  actions: MessageActions;
  sources: SelectSources;
}) {
  const multiple = (component.max_values ?? 1) > 1;
  const options = selectOptions(component, sources);
  const choose = (event: Event) => {
    const select = event.currentTarget as HTMLSelectElement;
    const values = [...select.selectedOptions].map((o) => o.value).filter((v) => v !== '');
    if (values.length >= (component.min_values ?? 1)) actions.component(message, component, values);
  };
  return (
    <select
      class="component-select"
      aria-label={component.placeholder ?? 'Make a selection'}
      multiple={multiple}
      disabled={component.disabled === true}
      onChange={choose}
    >
      {!multiple && <option value="">{component.placeholder ?? 'Make a selection'}</option>}
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

interface ComponentProps {
  message: Json;
  component: Json;
  actions: MessageActions;
  sources: SelectSources;
  names: MentionNames;
}

function Component(props: ComponentProps): ComponentChildren {
  const { message, component, actions, sources, names } = props;
  const renderChild = (child: Json, key: number) => <Component key={key} {...props} component={child} />;
  if (component.type === 1) {
    return <div class="action-row">{(component.components ?? []).map(renderChild)}</div>;
  }
  if (LAYOUT_COMPONENT_TYPES.has(component.type as number)) {
    return (
      <LayoutComponent component={component} names={names} fetchFile={actions.fetchFile} renderChild={renderChild} />
    );
  }
  if (component.type === 2) {
    const style = BUTTON_STYLES[component.style as number] ?? 'secondary';
    const label = [component.emoji?.name, component.label].filter(Boolean).join(' ');
    if (component.style === 5) {
      const href = webHref(component.url);
      // Only http(s) opens: any other link button is shown, and does nothing.
      return href ? (
        <a class={`button ${style}`} href={href} target="_blank" rel="noopener noreferrer">
          {label} ↗
        </a>
      ) : (
        <button type="button" class={`button ${style}`} disabled>
          {label} ↗
        </button>
      );
    }
    if (component.style === 6) {
      const name = actions.premium?.skuName(applicationOf(message), component.sku_id as string) ?? 'Premium';
      return (
        <button
          type="button"
          class={`button ${style}`}
          disabled={component.disabled === true || !actions.premium}
          onClick={() => actions.premium?.buy(message, component)}
        >
          <span aria-hidden="true">◆ </span>
          {name}
        </button>
      );
    }
    return (
      <button
        type="button"
        class={`button ${style}`}
        disabled={component.disabled === true}
        onClick={() => actions.component(message, component, null)}
      >
        {label || component.custom_id}
      </button>
    );
  }
  if (SELECT_TYPES.has(component.type as number)) {
    return <Select message={message} component={component} actions={actions} sources={sources} />;
  }
  return null;
}

/**
 * A message a webhook sent, as discord.js tells it (`fetchWebhook`): it carries `webhook_id`, and
 * that is not its app's id, which an interaction's answers (sent through the app's own webhook) carry.
 */
export function isWebhookMessage(message: Json): boolean {
  return typeof message.webhook_id === 'string' && message.webhook_id !== message.application_id;
}

/** The author's avatar where v10's CDN puts it (slashd serves webhooks' at the same path), or null without one. */
export function avatarPath(author: Json): string | null {
  return typeof author.id === 'string' && typeof author.avatar === 'string'
    ? `/avatars/${author.id}/${author.avatar}.png`
    : null;
}

/** The author's image, small, beside the name; hidden if the server has none at that path. */
function Avatar({ author }: { author: Json }) {
  const path = avatarPath(author);
  if (!path) return null;
  return (
    <img
      class="avatar"
      src={path}
      alt=""
      width={20}
      height={20}
      onError={(e) => {
        e.currentTarget.hidden = true;
      }}
    />
  );
}

/** A webhook's name is not a user: it opens no Apps menu. Anyone else's name does. */
function AuthorName({
  author,
  name,
  webhook,
  actions,
}: {
  author: Json;
  name: string;
  webhook: boolean;
  actions: MessageActions;
}) {
  if (webhook) return <span class="author plain">{name}</span>;
  return (
    <button
      type="button"
      class="author link-button"
      aria-haspopup="menu"
      onClick={(e) => actions.openMenu('user', author, e.currentTarget)}
      onContextMenu={(e) => {
        e.preventDefault();
        actions.openMenu('user', author, e.currentTarget);
      }}
    >
      {name}
    </button>
  );
}

export function Message({
  message,
  names,
  actions,
  sources,
}: {
  message: Json;
  names: MentionNames;
  actions: MessageActions;
  sources: SelectSources;
}) {
  const flags = (message.flags as number | undefined) ?? 0;
  const ephemeral = (flags & MessageFlag.Ephemeral) !== 0;
  const loading = (flags & MessageFlag.Loading) !== 0;
  const componentsV2 = (flags & MessageFlag.ComponentsV2) !== 0;
  const author = message.author ?? {};
  const authorName: string = author.global_name ?? author.username ?? 'unknown';
  const used = message.interaction_metadata;
  const usedBy = used?.user ? (used.user.global_name ?? used.user.username) : undefined;
  // v10's name of the use: the command with its subcommand group and subcommand ("fruit pick").
  const commandName: string | undefined = message.interaction?.name ?? used?.name;
  // A context-menu use reads "alice used User Card", a slash command's "alice used /fruit pick".
  const contextMenu = used?.command_type === 2 || used?.command_type === 3;
  const webhook = isWebhookMessage(message);
  return (
    <li
      class={ephemeral ? 'message ephemeral' : 'message'}
      data-message-id={message.id}
      aria-label={`Message from ${authorName}`}
    >
      {/* A click's or a modal's answer names no command: v10 clients show no "used" line for it. */}
      {usedBy && commandName && (
        <div class="used">
          <button
            type="button"
            class="link-button"
            onClick={(e) => actions.openMenu('user', used.user, e.currentTarget)}
          >
            {usedBy}
          </button>{' '}
          used <span class="command-name">{contextMenu ? commandName : `/${commandName ?? ''}`}</span>
        </div>
      )}
      <div class="message-head">
        <Avatar author={author} />
        <AuthorName author={author} name={authorName} webhook={webhook} actions={actions} />
        {webhook ? (
          <span class="badge webhook" title="Sent by a webhook, not by a user or an app's bot">
            WEBHOOK
          </span>
        ) : (
          author.bot && <span class="badge">APP</span>
        )}
        <time dateTime={message.timestamp}>
          {message.timestamp ? new Date(message.timestamp as string).toLocaleTimeString() : ''}
        </time>
        <button
          type="button"
          class="menu-button"
          aria-haspopup="menu"
          aria-label="Message actions"
          onClick={(e) => actions.openMenu('message', message, e.currentTarget)}
        >
          ⋯
        </button>
      </div>
      {loading ? (
        <p class="thinking" role="status">
          {authorName} is thinking…
        </p>
      ) : (
        message.content && <Markdown text={message.content as string} names={names} />
      )}
      {(message.embeds ?? []).map((embed: Json, i: number) => (
        <Embed key={i} embed={embed} names={names} />
      ))}
      {/* A components V2 message shows its files where its components place them. */}
      {!componentsV2 &&
        (message.attachments ?? []).map((attachment: Json) => (
          <Attachment key={attachment.id} attachment={attachment} fetchFile={actions.fetchFile} />
        ))}
      {(message.components ?? []).map((component: Json, i: number) => (
        <Component key={i} message={message} component={component} actions={actions} sources={sources} names={names} />
      ))}
      {message.poll && (
        <Poll message={message} actions={actions.polls ?? { vote: async () => 'Votes are not taken here.' }} />
      )}
      {actions.reactions && !ephemeral && !loading && <Reactions message={message} actions={actions.reactions} />}
      {ephemeral && (
        <div class="ephemeral-note">
          <span>Only you can see this</span> ·{' '}
          <button type="button" class="link-button" onClick={() => actions.dismiss(message.id as string)}>
            Dismiss message
          </button>
        </div>
      )}
    </li>
  );
}
