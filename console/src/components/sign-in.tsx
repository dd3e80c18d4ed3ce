/**
 * Who the console acts as. In a sandbox (`npm start`'s demo) the server lists its users to pick
 * from; anywhere else the user pastes their token. Nothing is signed in without a token.
 */
import { useState } from 'preact/hooks';
import { sandboxUsers } from '../api';
import { useRead } from '../hooks';
import { signIn, type Session } from '../session';

export function SignIn({ onSession }: { onSession: (session: Session) => void }) {
  const users = useRead(sandboxUsers, []);
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const enter = async (value: string) => {
    try {
      onSession(await signIn(value));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };
  return (
    <main class="sign-in">
      <h1>slashd console</h1>
      <p>Use application commands as a user of this world.</p>
      {users.data && users.data.length > 0 && (
        <section aria-labelledby="sandbox-users">
          <h2 id="sandbox-users">Sandbox: sign in as</h2>
          <ul class="user-list">
            {users.data.map((user) => (
              <li key={user.id}>
                <button type="button" class="button secondary" onClick={() => void enter(user.token as string)}>
                  {user.username}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void enter(token.trim());
        }}
      >
        <label for="token">User token</label>
        <input
          id="token"
          type="password"
          autoComplete="off"
          value={token}
          onInput={(e) => setToken(e.currentTarget.value)}
        />
        <button type="submit" class="button primary">
          Sign in
        </button>
      </form>
      {error && (
        <p class="form-refusal" role="alert">
          {error}
        </p>
      )}
    </main>
  );
}
