/**
 * A message's poll as the user sees it: the question, each answer with its votes, the user's own
 * pressed. Clicking an answer votes for it (with a multiselect poll, adds it to the user's votes);
 * clicking one of the user's takes it back. An ended poll shows its final counts and takes no vote.
 * The counts come from the message as v10 reads it: the console re-reads the channel when a vote
 * changes (the live stream tells it).
 */
import { useState } from 'preact/hooks';
import type { Json } from '../types';
import { emojiText } from './reactions';

export interface PollActions {
  /** Makes `answerIds` the user's votes; a refusal comes back as a sentence. */
  vote: (message: Json, answerIds: number[]) => Promise<string | null>;
}

/** The user's votes after clicking `answerId`: toggled in a multiselect poll, else it alone (or none). */
function votesAfter(poll: Json, mine: number[], answerId: number): number[] {
  if (mine.includes(answerId)) return mine.filter((id) => id !== answerId);
  return poll.allow_multiselect === true ? [...mine, answerId] : [answerId];
}

export function Poll({ message, actions }: { message: Json; actions: PollActions }) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const poll = message.poll;
  const counts: Json[] = poll.results?.answer_counts ?? [];
  const ended = poll.results?.is_finalized === true;
  const countOf = (id: number): Json => counts.find((c) => c.id === id);
  const mine = counts.filter((c) => c.me_voted === true).map((c) => c.id as number);
  const total = counts.reduce((sum, c) => sum + (c.count as number), 0);
  const vote = async (answerId: number) => setRefusal(await actions.vote(message, votesAfter(poll, mine, answerId)));
  return (
    <section class="poll" aria-label={`Poll: ${poll.question.text as string}`}>
      <p class="poll-question">{poll.question.text}</p>
      <div class="poll-answers" role="group" aria-label="Answers">
        {(poll.answers as Json[]).map((answer) => {
          const id = answer.answer_id as number;
          const count = (countOf(id)?.count as number | undefined) ?? 0;
          const media = answer.poll_media;
          const label = `${media.text as string}, ${count} ${count === 1 ? 'vote' : 'votes'}`;
          return (
            <button
              key={id}
              type="button"
              class={mine.includes(id) ? 'poll-answer mine' : 'poll-answer'}
              aria-pressed={mine.includes(id)}
              aria-label={label}
              disabled={ended}
              onClick={() => void vote(id)}
            >
              {media.emoji && <span class="poll-emoji">{emojiText(media.emoji)}</span>}
              <span class="poll-text">{media.text}</span>
              <span class="poll-count">{count}</span>
            </button>
          );
        })}
      </div>
      <p class="poll-footer">
        {total} {total === 1 ? 'vote' : 'votes'}
        {poll.allow_multiselect === true ? ' · Select one or more answers' : ''}
        {ended ? ' · Poll closed' : ''}
      </p>
      {refusal && (
        <p class="form-refusal" role="alert">
          {refusal}
        </p>
      )}
    </section>
  );
}
