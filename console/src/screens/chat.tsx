/**
 * The chat screen: the channel as the signed-in user sees it, newest at the bottom and live, and
 * the command picker. Every action is a v10 request with the user's token: POST /interactions for
 * commands (2), autocomplete (4), clicks (3) and modal submissions (5), then GET
 * /interactions/{id} to follow it.
 */
import { uploadForm } from '../uploads';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { commandData, contextCommands, wireOptions, type FormValues, type PickerEntry } from '../commands';
import { Composer } from '../components/composer';
import { ContextMenu, type MenuItem } from '../components/context-menu';
import { Message, type MessageActions } from '../components/message';
import { ModalDialog } from '../components/modal-dialog';
import { PurchaseDialog } from '../components/purchase-dialog';
import { buy, hasPremiumButton, skuOf, useShelves } from '../shelves';
import type { Choice } from '../components/option-form';
import { PlaceBar, privateChannelName } from '../components/place-bar';
import { useRecorder } from '../components/record-bar';
import { commandLine } from '../recorder';
import type { Step } from '../../../src/core/scenarios/types';
import { emojiPathName } from '../components/reactions';
import { useCommandIndex, useGuild, useMessages, usePrivateChannels, useTracker, type Tracked } from '../hooks';
import type { MentionNames } from '../markdown';
import type { ScreenProps } from '../screens';
import { CommandType, MessageFlag, type Json } from '../types';

/** How long the console waits for the app's autocomplete choices: v10's 3 s, and a little more. */
const AUTOCOMPLETE_WAIT_MS = 3500;
const AUTOCOMPLETE_POLL_MS = 100;

/** A refusal as one sentence: the v10 message, and the paths of field errors when there are some. */
function refusalText(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  // An auto moderation rule blocked the message (200000): its custom message is what the member reads.
  if (error.body?.code === 200000) {
    const custom = typeof error.body.custom_message === 'string' ? ` ${error.body.custom_message as string}` : '';
    return `Your message was blocked by AutoMod.${custom}`;
  }
  const paths: string[] = [];
  const walk = (node: Json, path: string[]) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node._errors))
      for (const e of node._errors as Json[]) paths.push(`${path.join('.')}: ${e.message as string}`);
    for (const [key, child] of Object.entries(node as Record<string, Json>))
      if (key !== '_errors') walk(child, [...path, key]);
  };
  walk(error.body?.errors, []);
  return [error.message, ...paths].join(' — ');
}

/** What a failure code means, for an interaction whose cause slashd did not record (`failure_detail` says it when it did). */
const FAILURE_TEXT: Record<string, string> = {
  timeout: 'the app did not answer within 3 seconds',
  delivery_failure: 'the interaction could not be delivered to the app',
  invalid_response: 'the app answered with something v10 does not accept',
};

function Failure({ tracked, dismiss }: { tracked: Tracked; dismiss: () => void }) {
  return (
    <li class="message system">
      <div role="alert">
        <p class="failure">The application did not respond</p>
        <details>
          <summary>Why? (for the app's developer)</summary>
          <p>
            <code>{tracked.failure_reason ?? 'failed'}</code>:{' '}
            {tracked.failure_detail ?? FAILURE_TEXT[tracked.failure_reason ?? ''] ?? 'reading the reason…'}
          </p>
        </details>
        <button type="button" class="link-button" onClick={dismiss}>
          Dismiss
        </button>
      </div>
    </li>
  );
}

export function ChatScreen({ session, place, setPlace }: ScreenProps) {
  const { api } = session;
  const guildId = place?.guildId ?? null;
  const channelId = place?.channelId ?? null;
  const guild = useGuild(api, guildId);
  const privateChannels = usePrivateChannels(api).data ?? [];
  const messages = useMessages(api, channelId);
  const premiumShown = (messages.data ?? []).some((m: Json) => hasPremiumButton(m.components));
  const shelves = useShelves(api, premiumShown);
  const index = useCommandIndex(api, channelId);
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  const [modal, setModal] = useState<{ data: Json; applicationId: string } | null>(null);
  /** The SKU a premium button offers, while its purchase dialog is open. */
  const [purchase, setPurchase] = useState<{ sku: Json; applicationId: string } | null>(null);
  const [menu, setMenu] = useState<{ kind: 'message' | 'user'; target: Json; anchor: HTMLElement } | null>(null);
  /** Which app each of the user's interactions went to (a modal is submitted to it). */
  const apps = useRef(new Map<string, string>());
  const shownModals = useRef(new Set<string>());
  const reloadMessages = messages.reload;
  const { recorder, bar } = useRecorder(
    session.user.username,
    (guild.data?.channels ?? []).find((c: Json) => c.id === channelId)?.name ?? '',
  );
  const onTracked = useCallback(
    (tracked: Tracked) => {
      reloadMessages();
      recorder.settle(tracked);
      if (tracked.response?.type === 9 && !shownModals.current.has(tracked.id)) {
        shownModals.current.add(tracked.id);
        setModal({ data: tracked.response.data, applicationId: apps.current.get(tracked.id) ?? '' });
      }
    },
    [reloadMessages, recorder],
  );
  const { tracked, track, dismiss } = useTracker(api, onTracked);
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [messages.data, tracked]);

  const channels: Json[] = guild.data?.channels ?? [];
  const channel = channels.find((c) => c.id === channelId);
  const privateChannel = guildId === null ? privateChannels.find((c) => c.id === channelId) : undefined;
  /** What the composer names: `#general`, or a DM's bot (`@Demo Bot`), or a group DM's name. */
  const placeLabel = privateChannel
    ? privateChannelName(privateChannel)
    : `#${(channel?.name as string | undefined) ?? ''}`;
  const members = useMemo(
    () =>
      (guild.data?.members ?? []).map((m: Json) => ({
        id: m.user.id as string,
        name: (m.nick ?? m.user.global_name ?? m.user.username) as string,
      })),
    [guild.data],
  );
  const roles = useMemo(
    () => (guild.data?.roles ?? []).map((r: Json) => ({ id: r.id as string, name: r.name as string })),
    [guild.data],
  );
  const channelList = useMemo(
    () => channels.map((c) => ({ id: c.id as string, name: c.name as string, type: c.type as number })),
    [channels],
  );
  const names: MentionNames = useMemo(
    () => ({
      user: (id) => members.find((m: { id: string }) => m.id === id)?.name,
      role: (id) => roles.find((r: { id: string }) => r.id === id)?.name,
      channel: (id) => channelList.find((c) => c.id === id)?.name,
    }),
    [members, roles, channelList],
  );
  const appName = (id: string) => index.data?.applications.find((a) => a.id === id)?.name ?? 'The app';

  /** Sends one interaction and follows it; a refusal comes back as a sentence. */
  const invoke = async (body: Record<string, unknown>, label: string, step: Step | null): Promise<string | null> => {
    try {
      const full = { guild_id: guildId, channel_id: channelId, nonce: String(Date.now()), ...body };
      const form = uploadForm(full);
      const result = form ? await api.postForm('/interactions', form) : await api.post('/interactions', full);
      apps.current.set(result.id as string, body.application_id as string);
      session.interactions.add(result.id as string);
      recorder.follow(result.id as string, step);
      track(result, label);
      return null;
    } catch (error) {
      recorder.refused(step, error);
      return refusalText(error);
    }
  };

  const say = async (content: string): Promise<string | null> => {
    const step = recorder.step({ post: content });
    try {
      await api.post(`/channels/${channelId ?? ''}/messages`, { content });
    } catch (error) {
      recorder.refused(step, error);
      return refusalText(error);
    }
    reloadMessages();
    return null;
  };

  const send = (entry: PickerEntry, values: FormValues) => {
    const data = commandData(entry.command, wireOptions(entry, values));
    const step = recorder.step({ invoke: commandLine(data) }, entry.appName);
    return invoke({ type: 2, application_id: entry.command.application_id, data }, entry.label, step);
  };

  const autocomplete = async (entry: PickerEntry, values: FormValues, focused: string): Promise<Choice[]> => {
    let status: Json;
    try {
      status = await api.post('/interactions', {
        type: 4,
        application_id: entry.command.application_id,
        guild_id: guildId,
        channel_id: channelId,
        data: commandData(entry.command, wireOptions(entry, values, focused)),
      });
    } catch (error) {
      throw new Error(refusalText(error), { cause: error });
    }
    const started = Date.now();
    while (status.state === 'pending' && Date.now() - started < AUTOCOMPLETE_WAIT_MS) {
      await new Promise((done) => setTimeout(done, AUTOCOMPLETE_POLL_MS));
      status = await api.get(`/interactions/${status.id as string}`);
    }
    if (status.state === 'responded' && Array.isArray(status.response?.data?.choices)) {
      return (status.response.data.choices as Json[]).map((c) => ({
        name: (c.name_localized ?? c.name) as string,
        value: c.value as string | number,
      }));
    }
    // Failed at once: the POST carries no reason, the status read does.
    if (status.state === 'failed' && !status.failure_reason)
      status = await api.get(`/interactions/${status.id as string}`);
    const why =
      (status.failure_detail as string | undefined) ??
      FAILURE_TEXT[status.failure_reason as string] ??
      'the app did not answer within 3 seconds';
    throw new Error(`Loading options failed: ${why}.`);
  };

  const actions: MessageActions = {
    component: (message, component, values) => {
      const click = component.label ? { label: component.label as string } : (component.custom_id as string);
      const step = recorder.step({ click, ...(values ? { values } : {}) });
      void invoke(
        {
          type: 3,
          application_id: message.application_id ?? message.author?.id,
          message_id: message.id,
          data: { custom_id: component.custom_id, component_type: component.type, ...(values ? { values } : {}) },
        },
        component.label ?? component.custom_id,
        step,
      );
    },
    openMenu: (kind, target, anchor) => setMenu({ kind, target, anchor }),
    // The file's path on this server: its URL names slashd's public origin, the console may be reached otherwise.
    fetchFile: async (url) => {
      const response = await fetch(new URL(url, location.href).pathname, { headers: { Authorization: api.token } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.blob();
    },
    dismiss: (id) => setDismissed((set) => new Set([...set, id])),
    premium: {
      skuName: (applicationId, skuId) =>
        (skuOf(shelves.data, applicationId, skuId)?.name as string | undefined) ?? null,
      buy: (message, component) => {
        const applicationId = (message.application_id ?? message.author?.id ?? '') as string;
        const sku = skuOf(shelves.data, applicationId, component.sku_id as string) ?? {
          id: component.sku_id,
          name: 'Premium',
        };
        setPurchase({ sku, applicationId });
      },
    },
    reactions: {
      emojis: guild.data?.emojis ?? [],
      react: async (message, emoji, add) => {
        const step = add ? recorder.step({ react: emojiPathName(emoji) }) : null;
        const path = `/channels/${channelId ?? ''}/messages/${message.id as string}/reactions/${encodeURIComponent(emojiPathName(emoji))}/@me`;
        try {
          await api.call(add ? 'PUT' : 'DELETE', path);
        } catch (error) {
          recorder.refused(step, error);
          return refusalText(error);
        }
        reloadMessages();
        return null;
      },
    },
    polls: {
      vote: async (message, answerIds) => {
        try {
          await api.put(`/channels/${channelId ?? ''}/polls/${message.id as string}/answers/@me`, {
            answer_ids: answerIds,
          });
        } catch (error) {
          return refusalText(error);
        }
        reloadMessages();
        return null;
      },
    },
  };

  const runMenuItem = ({ command }: MenuItem) => {
    if (!menu) return;
    const target = menu.target.id as string;
    setMenu(null);
    void invoke(
      {
        type: 2,
        application_id: command.application_id,
        data: { id: command.id, name: command.name, type: command.type, version: command.version, target_id: target },
      },
      command.name,
      recorder.step({ invoke: command.name, target }),
    );
  };

  // An ephemeral answer is shown in the sign-in that used the command only (docs/console.md).
  const ownEphemeral = (m: Json) =>
    (((m.flags as number | undefined) ?? 0) & MessageFlag.Ephemeral) === 0 ||
    session.interactions.has((m.interaction_metadata?.id as string | undefined) ?? '');
  const shown = (messages.data ?? []).filter((m: Json) => !dismissed.has(m.id as string) && ownEphemeral(m));
  const waiting = tracked.filter((t) => t.state === 'pending');
  const failed = tracked.filter((t) => t.state === 'failed');
  return (
    <div class="chat">
      <PlaceBar api={api} place={place} setPlace={setPlace} channels={channels} privateChannels={privateChannels} />
      {channelId && bar}
      <section class="channel" aria-label={channel || privateChannel ? placeLabel : 'Channel'}>
        {messages.error && (
          <p class="form-refusal" role="alert">
            {messages.error}
          </p>
        )}
        <div class="messages" ref={list} role="log" aria-live="polite" aria-label="Messages" tabIndex={0}>
          <ol class="message-list">
            {shown.map((message: Json) => (
              <Message
                key={message.id}
                message={message}
                names={names}
                actions={actions}
                sources={{ users: members, roles, channels: channelList }}
              />
            ))}
            {failed.map((t) => (
              <Failure key={t.id} tracked={t} dismiss={() => dismiss(t.id)} />
            ))}
          </ol>
        </div>
        <p class="live-status muted" role="status">
          {waiting.length > 0
            ? `Waiting for ${waiting.map((t) => t.label).join(', ')}…`
            : !channelId
              ? 'No channel picked'
              : messages.live
                ? 'Live'
                : 'Connecting…'}
        </p>
        {channelId && (
          <Composer
            placeLabel={placeLabel}
            index={index.data}
            onOpen={index.reload}
            sources={{ members, roles, channels: channelList }}
            autocomplete={autocomplete}
            send={send}
            say={say}
          />
        )}
      </section>
      {modal && (
        <ModalDialog
          modal={modal.data}
          appName={appName(modal.applicationId)}
          close={() => setModal(null)}
          submit={(values) =>
            invoke(
              {
                type: 5,
                application_id: modal.applicationId,
                data: {
                  custom_id: modal.data.custom_id,
                  components: Object.entries(values).map(([custom_id, value]) => ({
                    type: 1,
                    components: [{ type: 4, custom_id, value }],
                  })),
                },
              },
              modal.data.title as string,
              recorder.step({ submit: values }),
            )
          }
        />
      )}
      {purchase && (
        <PurchaseDialog
          sku={purchase.sku}
          appName={
            shelves.data?.find((s) => s.application.id === purchase.applicationId)?.application.name ??
            appName(purchase.applicationId)
          }
          close={() => {
            setPurchase(null);
            shelves.reload();
          }}
          purchase={async () => {
            try {
              await buy(api, purchase.applicationId, purchase.sku.id as string);
              return null;
            } catch (error) {
              return refusalText(error);
            }
          }}
        />
      )}
      {menu && (
        <ContextMenu
          title={
            menu.kind === 'message'
              ? 'Message actions'
              : `Actions for ${(menu.target.username as string | undefined) ?? 'user'}`
          }
          items={contextCommands(index.data, menu.kind === 'message' ? CommandType.Message : CommandType.User)}
          anchor={menu.anchor}
          choose={runMenuItem}
          close={() => setMenu(null)}
        />
      )}
    </div>
  );
}
