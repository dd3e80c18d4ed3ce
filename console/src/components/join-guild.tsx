/**
 * "Join a guild": the user pastes an invite code or link and joins its guild with v10's accept,
 * `POST /invites/{code}` with their own token, as the client does; the guild is then in their
 * list and picked. A refusal (unknown or expired invite, a ban) is shown under the field.
 */
import { useState } from 'preact/hooks';
import { ApiError, type Api } from '../api';
import { inviteCodeOf, joinRefusalText } from '../invites';
import type { Json } from '../types';

export interface JoinGuildProps {
  api: Api;
  /** The user joined (or was already in) the guild: the list is read again, the guild picked, `notice` shown. */
  joined: (guildId: string, notice: string) => void;
  close: () => void;
}

function refusal(error: unknown): string {
  if (error instanceof ApiError) return joinRefusalText(error.body?.code as number | undefined, error.message);
  return error instanceof Error ? error.message : String(error);
}

export function JoinGuild({ api, joined, close }: JoinGuildProps) {
  const [text, setText] = useState('');
  const [refused, setRefused] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const code = inviteCodeOf(text);
    if (!code) {
      setRefused('Paste an invite link or code, like https://discord.gg/hTKzmak or hTKzmak.');
      return;
    }
    setBusy(true);
    try {
      const invite: Json = await api.post(`/invites/${encodeURIComponent(code)}`, {});
      const name = (invite.guild?.name as string | undefined) ?? 'the guild';
      const notice = invite.new_member === false ? `You are already in ${name}.` : `You joined ${name}.`;
      // Every invite slashd makes is a guild's; one without a guild would have nothing to pick.
      if (typeof invite.guild?.id === 'string') joined(invite.guild.id as string, notice);
      else {
        setRefused('This invite leads to no guild.');
        setBusy(false);
      }
    } catch (error) {
      setRefused(refusal(error));
      setBusy(false);
    }
  };
  return (
    <form class="join-guild" aria-label="Join a guild" onSubmit={(e) => void submit(e)}>
      <div class="field">
        <label for="invite-link">Invite link or code</label>
        <input
          id="invite-link"
          value={text}
          placeholder="https://discord.gg/hTKzmak"
          autoComplete="off"
          spellcheck={false}
          aria-invalid={refused ? true : undefined}
          aria-describedby={refused ? 'invite-refused' : undefined}
          onInput={(e) => setText(e.currentTarget.value)}
        />
      </div>
      <div class="join-guild-actions">
        <button type="submit" class="button primary" disabled={busy}>
          Join
        </button>
        <button type="button" class="button secondary" onClick={close}>
          Cancel
        </button>
      </div>
      {refused && (
        <p id="invite-refused" class="form-refusal" role="alert">
          {refused}
        </p>
      )}
    </form>
  );
}
