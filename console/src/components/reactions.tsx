/**
 * A message's reactions as the user sees them: each emoji with its count, the user's own pressed;
 * clicking one adds or removes the user's reaction, "Add reaction" offers a few unicode emojis and
 * the guild's custom ones. The counts come from the message as v10 reads it: the console re-reads
 * the channel when a reaction changes (the live stream tells it), so they stay current.
 */
import { useState } from 'preact/hooks';
import type { Json } from '../types';

/** The unicode emojis the picker offers before the guild's own. */
const PICKER_UNICODE = ['👍', '❤️', '😂', '🎉', '👀', '🔥'];

export interface ReactionActions {
  /** The guild's custom emojis (v10 emoji objects). */
  emojis: Json[];
  /** Adds (or removes) the user's reaction; a refusal comes back as a sentence. */
  react: (message: Json, emoji: Json, add: boolean) => Promise<string | null>;
}

/** An emoji as a person reads it: the character, or a custom emoji's `:name:`. */
export function emojiText(emoji: Json): string {
  return emoji.id ? `:${(emoji.name as string | null) ?? 'deleted'}:` : (emoji.name as string);
}

/** An emoji as a reaction path names it: the character, or `name:id` (percent-encoded by the caller). */
export function emojiPathName(emoji: Json): string {
  return emoji.id ? `${(emoji.name as string | null) ?? '_'}:${emoji.id as string}` : (emoji.name as string);
}

function Picker({ emojis, choose }: { emojis: Json[]; choose: (emoji: Json) => void }) {
  const offered = [
    ...PICKER_UNICODE.map((name) => ({ id: null, name })),
    ...emojis.filter((e) => e.available !== false),
  ];
  return (
    <div class="reaction-picker" role="group" aria-label="Pick a reaction">
      {offered.map((emoji) => (
        <button
          key={emojiPathName(emoji)}
          type="button"
          class={emoji.id ? 'reaction-choice custom' : 'reaction-choice'}
          aria-label={`React with ${emojiText(emoji)}`}
          onClick={() => choose(emoji)}
        >
          {emojiText(emoji)}
        </button>
      ))}
    </div>
  );
}

export function Reactions({ message, actions }: { message: Json; actions: ReactionActions }) {
  const [picking, setPicking] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const reactions: Json[] = message.reactions ?? [];
  const react = async (emoji: Json, add: boolean) => {
    setPicking(false);
    setRefusal(await actions.react(message, emoji, add));
  };
  return (
    <div class={reactions.length > 0 ? 'reactions' : 'reactions none'}>
      {reactions.map((reaction) => {
        const text = emojiText(reaction.emoji);
        const count = reaction.count as number;
        return (
          <button
            key={emojiPathName(reaction.emoji)}
            type="button"
            class={reaction.me ? 'reaction mine' : 'reaction'}
            aria-pressed={reaction.me === true}
            aria-label={`${text}, ${count} ${count === 1 ? 'reaction' : 'reactions'}`}
            onClick={() => void react(reaction.emoji, reaction.me !== true)}
          >
            <span class={reaction.emoji.id ? 'reaction-emoji custom' : 'reaction-emoji'}>{text}</span>{' '}
            <span class="reaction-count">{count}</span>
          </button>
        );
      })}
      <button
        type="button"
        class="reaction add-reaction"
        aria-label="Add reaction"
        aria-expanded={picking}
        onClick={() => setPicking(!picking)}
      >
        ☺+
      </button>
      {picking && <Picker emojis={actions.emojis} choose={(emoji) => void react(emoji, true)} />}
      {refusal && (
        <p class="form-refusal" role="alert">
          {refusal}
        </p>
      )}
    </div>
  );
}
