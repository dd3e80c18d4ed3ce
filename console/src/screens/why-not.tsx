/**
 * "Why not?": for the signed-in user in the channel picked, every command of the guild's
 * installed apps with its verdict (shown, hidden, refused when used) and the reason slashd's
 * permission engine gives (GET /channels/{id}/application-command-index/explain). The sentence is
 * the server's: the console never words a reason itself. No real client shows this.
 */
import { useMemo, useState } from 'preact/hooks';
import { PlaceBar } from '../components/place-bar';
import { useGuild, usePrivateChannels, useRead } from '../hooks';
import type { ScreenProps } from '../screens';
import type { Json } from '../types';
import './permission-screens.css';

type Verdict = 'shown' | 'hidden' | 'refused';

interface ExplainedCommand {
  command: { id: string; name: string; type: number; guild_id: string | null };
  verdict: Verdict;
  reason: { kind: string };
  text: string;
}

interface Explanation {
  channel: { id: string; name: string };
  user: { id: string; username: string };
  applications: { id: string; name: string; commands: ExplainedCommand[] }[];
}

const VERDICT_LABEL: Record<Verdict, string> = { shown: 'Shown', hidden: 'Hidden', refused: 'Refused' };
/** A shape as well as a colour, so the verdict does not rest on colour alone. */
const VERDICT_MARK: Record<Verdict, string> = { shown: '✓', hidden: '✕', refused: '!' };
const TYPE_LABEL: Record<number, string> = { 1: 'slash', 2: 'user', 3: 'message', 4: 'entry point' };

type Filter = 'all' | Verdict;
const FILTERS: { id: Filter; label: string }[] = [
  { id: 'all', label: 'All' },
  { id: 'shown', label: 'Shown' },
  { id: 'hidden', label: 'Hidden' },
  { id: 'refused', label: 'Refused' },
];

function commandLabel(command: ExplainedCommand['command']): string {
  return command.type === 1 ? `/${command.name}` : command.name;
}

export function WhyNotScreen({ session, place, setPlace }: ScreenProps) {
  const { api, user } = session;
  const guild = useGuild(api, place?.guildId ?? null);
  const channelId = place?.channelId || null;
  const explanation = useRead<Explanation>(
    channelId
      ? async () => (await api.get(`/channels/${channelId}/application-command-index/explain`)) as Explanation
      : null,
    [api, channelId],
  );
  const [filter, setFilter] = useState<Filter>('all');
  const counts = useMemo(() => {
    const all = explanation.data?.applications.flatMap((app) => app.commands) ?? [];
    return { all: all.length, ...countBy(all) };
  }, [explanation.data]);
  const channels: Json[] = guild.data?.channels ?? [];
  const privateChannels = usePrivateChannels(api).data ?? [];

  return (
    <div class="why-not">
      <PlaceBar api={api} place={place} setPlace={setPlace} channels={channels} privateChannels={privateChannels} />
      <div class="why-not-body">
        <h1 class="why-not-title">
          Why not? <span class="muted">— what {user.username} sees</span>
          {explanation.data && <span class="muted"> in #{explanation.data.channel.name}</span>}
        </h1>
        <p class="muted why-not-hint">
          Every command of the server's apps, and the rule that decided it for you. Sign in as another user to see their
          view.
        </p>
        <div class="why-not-tools">
          <div role="radiogroup" aria-label="Show commands" class="segmented">
            {FILTERS.map((f) => (
              <label key={f.id} class={filter === f.id ? 'segment active' : 'segment'}>
                <input
                  type="radio"
                  name="why-not-filter"
                  value={f.id}
                  checked={filter === f.id}
                  onChange={() => setFilter(f.id)}
                />
                {f.label} ({counts[f.id]})
              </label>
            ))}
          </div>
          <button type="button" class="button secondary small" onClick={explanation.reload}>
            Check again
          </button>
        </div>
        {explanation.error && (
          <p class="form-refusal" role="alert">
            {explanation.error}
          </p>
        )}
        {!channelId && <p class="muted">Pick a channel.</p>}
        {explanation.data?.applications.map((app) => {
          const shown = app.commands.filter((c) => filter === 'all' || c.verdict === filter);
          const headingId = `why-not-app-${app.id}`;
          return (
            <section key={app.id} class="why-not-app" aria-labelledby={headingId}>
              <h2 id={headingId}>{app.name}</h2>
              {shown.length === 0 ? (
                <p class="muted">No command here.</p>
              ) : (
                <ul class="why-not-list">
                  {shown.map((c) => (
                    <li key={c.command.id} class={`why-not-item ${c.verdict}`}>
                      <span class={`verdict ${c.verdict}`}>
                        <span aria-hidden="true">{VERDICT_MARK[c.verdict]}</span> {VERDICT_LABEL[c.verdict]}
                      </span>
                      <span class="why-not-command">
                        <span class="command-name">{commandLabel(c.command)}</span>{' '}
                        <span class="muted">({TYPE_LABEL[c.command.type] ?? c.command.type})</span>
                      </span>
                      <span class="why-not-reason">{c.text}</span>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          );
        })}
      </div>
    </div>
  );
}

function countBy(commands: ExplainedCommand[]): Record<Verdict, number> {
  const counts: Record<Verdict, number> = { shown: 0, hidden: 0, refused: 0 };
  for (const c of commands) counts[c.verdict] += 1;
  return counts;
}
