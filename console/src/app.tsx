/** The console's frame: sign-in, then the navigation of SCREENS and the current one (by the address's hash). */
import { useEffect, useState } from 'preact/hooks';
import { SignIn } from './components/sign-in';
import { SCREENS } from './screens';
import { signIn, signOut, storedToken, type Session } from './session';
import { toggleTheme } from './theme';
import type { Place } from './types';

function currentScreenId(): string {
  const id = location.hash.slice(1);
  return SCREENS.some((s) => s.id === id) ? id : SCREENS[0]!.id;
}

export function App() {
  const [session, setSession] = useState<Session | null>(null);
  const [restoring, setRestoring] = useState(storedToken() !== null);
  const [screenId, setScreenId] = useState(currentScreenId);
  const [place, setPlace] = useState<Place | null>(null);
  useEffect(() => {
    const token = storedToken();
    if (token)
      signIn(token)
        .then(setSession, signOut)
        .finally(() => setRestoring(false));
    const onHash = () => setScreenId(currentScreenId());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  if (restoring) return <p class="muted">Signing in…</p>;
  if (!session) return <SignIn onSession={setSession} />;
  const screen = SCREENS.find((s) => s.id === screenId) ?? SCREENS[0]!;
  const Current = screen.component;
  return (
    <div class="frame">
      <header class="top">
        <span class="brand">slashd</span>
        <nav aria-label="Screens">
          {SCREENS.map((s) => (
            <a key={s.id} href={`#${s.id}`} aria-current={s.id === screen.id ? 'page' : undefined}>
              {s.title}
            </a>
          ))}
        </nav>
        <span class="who">{session.user.global_name ?? session.user.username}</span>
        <button
          type="button"
          class="button secondary small"
          onClick={toggleTheme}
          aria-label="Switch between dark and light theme"
        >
          ◐
        </button>
        <button
          type="button"
          class="button secondary small"
          onClick={() => {
            signOut();
            setSession(null);
            setPlace(null);
          }}
        >
          Sign out
        </button>
      </header>
      <main class="screen" aria-label={screen.title}>
        <Current session={session} place={place} setPlace={setPlace} />
      </main>
    </div>
  );
}
