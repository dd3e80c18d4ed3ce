/**
 * The permission editor: per app and per command of a guild, the role, member and channel
 * overwrites (allow / inherit / deny), @everyone and "All channels", and the app-level object
 * every command without its own overwrites follows. It uses v10's endpoints with the user's own
 * session, as v10's client does from the server settings: GET /guilds/{id}/application-command-index
 * for the commands, GET and PUT /applications/{app}/guilds/{guild}/commands/{command or app}/permissions.
 * Before Save it says in plain words what the change does; the server's refusals (400, 403) are shown.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, type Api } from '../api';
import { useRead } from '../hooks';
import type { ScreenProps } from '../screens';
import type { Json } from '../types';
import './permission-screens.css';

/** v10 command permission types. */
const ROLE = 1;
const USER = 2;
const CHANNEL = 3;
type OverwriteType = typeof ROLE | typeof USER | typeof CHANNEL;
type State = 'allow' | 'inherit' | 'deny';

interface Overwrite {
  id: string;
  type: OverwriteType;
  permission: boolean;
}

/** One row of the editor: what an overwrite names, and how a person reads it. */
interface Row {
  key: string;
  id: string;
  type: OverwriteType;
  /** "role Muted", "@everyone", "member carol", "#general", "All channels". */
  label: string;
}

const THREAD_TYPES = new Set([10, 11, 12]);
const CATEGORY = 4;

const keyOf = (type: number, id: string) => `${type}:${id}`;
const stateOf = (permission: boolean | undefined): State =>
  permission === undefined ? 'inherit' : permission ? 'allow' : 'deny';

function asMap(overwrites: Overwrite[]): Map<string, boolean> {
  return new Map(overwrites.map((o) => [keyOf(o.type, o.id), o.permission]));
}

/** The guild id minus one: v10's "every channel" constant. */
function allChannelsId(guildId: string): string {
  return (BigInt(guildId) - 1n).toString();
}

/** A refusal as one sentence: the v10 message and the path of each field error. */
function refusalText(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
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

/** A PUT with the user's session (the console's shared client has GET and POST only). */
async function putJson(api: Api, path: string, body: unknown): Promise<Json> {
  const response = await fetch(`/api/v10${path}`, {
    method: 'PUT',
    headers: { Authorization: api.token, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const parsed: Json = text === '' ? null : JSON.parse(text);
  if (!response.ok) throw new ApiError(response.status, parsed);
  return parsed;
}

/**
 * The stored overwrites of a command and of the app, from the app's list in the guild: one read
 * that answers 200 even where nothing is stored (the read of one target answers 404 10066 then,
 * which the browser logs as an error).
 */
async function readOverwrites(
  api: Api,
  appId: string,
  guildId: string,
  targetId: string,
): Promise<{ target: Overwrite[]; app: Overwrite[] }> {
  const all = (await api.get(`/applications/${appId}/guilds/${guildId}/commands/permissions`)) as Json[];
  const of = (id: string) => (all.find((entry) => entry.id === id)?.permissions ?? []) as Overwrite[];
  return { target: of(targetId), app: of(appId) };
}

/** v10 permission bits the editor needs: ADMINISTRATOR, or both MANAGE_GUILD and MANAGE_ROLES. */
const ADMINISTRATOR = 1n << 3n;
const MANAGE_GUILD = 1n << 5n;
const MANAGE_ROLES = 1n << 28n;

/**
 * Whether the user may edit command permissions in the guild, from their guild list entry
 * (`owner`, `permissions`): the server decides, but a request it is sure to refuse (403) is not made.
 */
function mayEditIn(guild: Json): boolean {
  if (!guild) return false;
  if (guild.owner === true) return true;
  const bits = BigInt((guild.permissions as string | undefined) ?? '0');
  return (bits & ADMINISTRATOR) !== 0n || ((bits & MANAGE_GUILD) !== 0n && (bits & MANAGE_ROLES) !== 0n);
}

/** What changing one row does, in plain words. */
function changeSentence(row: Row, before: State, after: State, scope: string, appLevel: boolean): string {
  const was = `(was ${before})`;
  if (after === 'inherit') {
    return `${capital(row.label)}: no overwrite any more; ${appLevel ? 'the default permissions decide' : 'the app level decides'} ${was}.`;
  }
  if (row.type === CHANNEL) {
    return after === 'allow'
      ? `${scope} may be used in ${row.label} ${was}.`
      : `No one but administrators sees ${scope} in ${row.label} ${was}.`;
  }
  if (after === 'allow') {
    const beyond = appLevel
      ? ', unless a command has its own overwrite'
      : ', whatever the app level and default permissions say';
    return `${capital(row.label)} may use ${scope}${beyond} ${was}.`;
  }
  const unless =
    row.type === ROLE && row.label !== '@everyone'
      ? ', unless another of their roles or their own overwrite allows it'
      : '';
  return `${capital(row.label)} no longer sees ${scope}${unless} ${was}.`;
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function TriState({
  row,
  value,
  onChange,
  inherits,
}: {
  row: Row;
  value: State;
  onChange: (state: State) => void;
  inherits: string;
}) {
  const name = `overwrite-${row.key}`;
  return (
    <fieldset class="overwrite-row">
      <legend>{row.label}</legend>
      <div class="tri-state">
        {(['allow', 'inherit', 'deny'] as const).map((state) => (
          <label key={state} class={value === state ? `checked ${state}` : state}>
            <input type="radio" name={name} value={state} checked={value === state} onChange={() => onChange(state)} />
            {state === 'allow' ? '✓ Allow' : state === 'deny' ? '✕ Deny' : '/ Inherit'}
          </label>
        ))}
      </div>
      <span class="inherits muted">{inherits}</span>
    </fieldset>
  );
}

export function PermissionsScreen({ session, place }: ScreenProps) {
  const { api } = session;
  const guilds = useRead<Json[]>(async () => (await api.get('/users/@me/guilds')) as Json[], [api]);
  // The guild, app and command shown are derived from what the user picked, with a default until
  // they pick: a default set by an effect after render would overwrite a pick made before the
  // effect ran (a slow frame after the options appear), and the editor would show another command.
  const [pickedGuild, setGuildId] = useState<string>(place?.guildId ?? '');
  const guildId = pickedGuild || ((guilds.data?.[0]?.id as string | undefined) ?? '');

  const guild = guilds.data?.find((g) => g.id === guildId);
  const mayEdit = mayEditIn(guild);
  const index = useRead<Json>(
    guildId && mayEdit ? async () => api.get(`/guilds/${guildId}/application-command-index`) : null,
    [api, guildId, mayEdit],
  );
  const world = useRead<{ roles: Json[]; channels: Json[]; members: Json[] }>(
    guildId
      ? async () => {
          const [roles, channels, members] = await Promise.all([
            api.get(`/guilds/${guildId}/roles`),
            api.consoleGet(`/guilds/${guildId}/channels`),
            api.consoleGet(`/guilds/${guildId}/members`),
          ]);
          return { roles, channels, members };
        }
      : null,
    [api, guildId],
  );

  const apps: Json[] = index.data?.applications ?? [];
  const [pickedApp, setAppId] = useState('');
  const appId = apps.some((a) => a.id === pickedApp) ? pickedApp : ((apps[0]?.id as string | undefined) ?? '');
  const commands: Json[] = (index.data?.application_commands ?? []).filter((c: Json) => c.application_id === appId);
  /** A command of the app, or the app itself (the app level, also the default). */
  const [pickedTarget, setTargetId] = useState('');
  const targetId = commands.some((c) => c.id === pickedTarget) ? pickedTarget : appId;

  const [reads, setReads] = useState(0);
  /** Which guild, app and command a read is of: a read still under way for another one is not shown. */
  const readKey = `${guildId}/${appId}/${targetId}`;
  const stored = useRead<{ key: string; target: Overwrite[]; app: Overwrite[] }>(
    guildId && appId && targetId
      ? async () => {
          const { target, app } = await readOverwrites(api, appId, guildId, targetId);
          return { key: `${guildId}/${appId}/${targetId}`, target, app };
        }
      : null,
    [api, guildId, appId, targetId, reads],
  );

  const current = stored.data?.key === readKey ? stored.data : null;
  const storedMap = useMemo(() => asMap(current?.target ?? []), [current]);
  /** The edit of the overwrites last read (`base`); a new read (another command, or after Save) starts afresh. */
  const [edit, setEdit] = useState<{ base: object; map: Map<string, boolean> } | null>(null);
  const draft = edit && edit.base === current ? edit.map : storedMap;
  const [addedMembers, setAddedMembers] = useState<string[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    setAddedMembers([]);
    setRefusal(null);
  }, [current]);

  const appLevel = targetId === appId;
  const app = apps.find((a) => a.id === appId);
  const command = commands.find((c) => c.id === targetId);
  const scope = appLevel
    ? `every command of ${app?.name ?? 'the app'} without its own overwrite`
    : command
      ? command.type === 1
        ? `/${command.name as string}`
        : (command.name as string)
      : 'the command';

  const memberName = (id: string): string => {
    const found = world.data?.members.find((m: Json) => m.user.id === id);
    return found ? ((found.nick ?? found.user.global_name ?? found.user.username) as string) : id;
  };

  const rows = useMemo(() => {
    if (!guildId || !world.data) return { members: [] as Row[], roles: [] as Row[], channels: [] as Row[] };
    const roles: Row[] = [
      { key: keyOf(ROLE, guildId), id: guildId, type: ROLE, label: '@everyone' },
      ...world.data.roles
        .filter((r: Json) => r.id !== guildId)
        .map((r: Json): Row => ({ key: keyOf(ROLE, r.id), id: r.id, type: ROLE, label: `role ${r.name as string}` })),
    ];
    const all = allChannelsId(guildId);
    const channels: Row[] = [
      { key: keyOf(CHANNEL, all), id: all, type: CHANNEL, label: 'All channels' },
      ...world.data.channels
        .filter((c: Json) => !THREAD_TYPES.has(c.type as number) && c.type !== CATEGORY)
        .map((c: Json): Row => ({ key: keyOf(CHANNEL, c.id), id: c.id, type: CHANNEL, label: `#${c.name as string}` })),
    ];
    const memberIds = new Set<string>(addedMembers);
    for (const overwrite of [...(current?.target ?? []), ...[...draft.keys()].map(parseKey)])
      if (overwrite.type === USER) memberIds.add(overwrite.id);
    const members: Row[] = [...memberIds].map((id): Row => ({
      key: keyOf(USER, id),
      id,
      type: USER,
      label: `member ${memberName(id)}`,
    }));
    return { roles, channels, members };
  }, [guildId, world.data, current, draft, addedMembers]);

  const appMap = useMemo(() => asMap(current?.app ?? []), [current]);
  const allRows = [...rows.roles, ...rows.members, ...rows.channels];
  const changes = allRows
    .map((row) => ({ row, before: stateOf(storedMap.get(row.key)), after: stateOf(draft.get(row.key)) }))
    .filter((change) => change.before !== change.after);

  const inheritsText = (row: Row): string => {
    if (appLevel) return row.type === CHANNEL ? 'Inherit: no channel rule' : 'Inherit: default permissions';
    const appState = stateOf(appMap.get(row.key));
    return appState === 'inherit' ? 'Inherit: app level has no overwrite' : `Inherit: app level says ${appState}`;
  };

  const setRow = (row: Row, state: State) => {
    setSaved(null);
    if (!current) return;
    const next = new Map(draft);
    if (state === 'inherit') next.delete(row.key);
    else next.set(row.key, state === 'allow');
    setEdit({ base: current, map: next });
  };

  const save = async () => {
    setSaving(true);
    setRefusal(null);
    try {
      const permissions = [...draft.entries()].map(([key, permission]) => ({ ...parseKey(key), permission }));
      await putJson(api, `/applications/${appId}/guilds/${guildId}/commands/${targetId}/permissions`, { permissions });
      setSaved(`Saved ${changes.length} change${changes.length === 1 ? '' : 's'} to ${scope}.`);
      setReads((n) => n + 1);
    } catch (error) {
      setRefusal(refusalText(error));
    } finally {
      setSaving(false);
    }
  };

  const synced = !appLevel && current && current.target.length === 0;
  const candidates = (world.data?.members ?? []).filter((m: Json) => !rows.members.some((r) => r.id === m.user.id));
  const [memberToAdd, setMemberToAdd] = useState('');

  return (
    <div class="permission-editor">
      <div class="editor-pickers">
        <label>
          <span class="label">Guild</span>
          <select value={guildId} onChange={(e) => setGuildId(e.currentTarget.value)}>
            {(guilds.data ?? []).map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span class="label">App</span>
          <select value={appId} onChange={(e) => setAppId(e.currentTarget.value)}>
            {apps.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span class="label">Command</span>
          <select value={targetId} onChange={(e) => setTargetId(e.currentTarget.value)}>
            <option value={appId}>All commands (app level)</option>
            {commands.map((c) => (
              <option key={c.id} value={c.id}>
                {c.type === 1 ? `/${c.name as string}` : (c.name as string)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div class="editor-body">
        <h1 class="editor-title">Command permissions</h1>
        {guild && !mayEdit && (
          <p class="form-refusal" role="alert">
            Editing command permissions needs Manage Guild and Manage Roles in this server.
          </p>
        )}
        {index.error && (
          <p class="form-refusal" role="alert">
            {index.error}: editing command permissions needs Manage Guild and Manage Roles in this server.
          </p>
        )}
        {stored.error && (
          <p class="form-refusal" role="alert">
            {stored.error}
          </p>
        )}
        {!index.error && app && (
          <p class="sync-note muted">
            {appLevel
              ? `The app level: what every command of ${app.name as string} follows where it has no overwrite of its own.`
              : synced
                ? 'Synced: this command has no overwrite of its own and follows the app level.'
                : 'Not synced: this command has overwrites of its own; where it has none, the app level applies.'}
          </p>
        )}
        {world.data && current && (
          <form
            aria-label={`Overwrites of ${scope}`}
            onSubmit={(e) => {
              e.preventDefault();
              if (changes.length > 0 && !saving) void save();
            }}
          >
            <section class="editor-section" aria-labelledby="editor-roles">
              <h2 id="editor-roles">Roles and members</h2>
              {[...rows.roles, ...rows.members].map((row) => (
                <TriState
                  key={row.key}
                  row={row}
                  value={stateOf(draft.get(row.key))}
                  onChange={(state) => setRow(row, state)}
                  inherits={inheritsText(row)}
                />
              ))}
              {candidates.length > 0 && (
                <div class="add-member">
                  <label>
                    <span class="label">Add a member</span>{' '}
                    <select value={memberToAdd} onChange={(e) => setMemberToAdd(e.currentTarget.value)}>
                      <option value="">Choose…</option>
                      {candidates.map((m: Json) => (
                        <option key={m.user.id} value={m.user.id}>
                          {(m.nick ?? m.user.global_name ?? m.user.username) as string}
                        </option>
                      ))}
                    </select>
                  </label>
                  <button
                    type="button"
                    class="button secondary small"
                    disabled={!memberToAdd}
                    onClick={() => {
                      setAddedMembers((list) => [...list, memberToAdd]);
                      setMemberToAdd('');
                    }}
                  >
                    Add
                  </button>
                </div>
              )}
            </section>
            <section class="editor-section" aria-labelledby="editor-channels">
              <h2 id="editor-channels">Channels</h2>
              {rows.channels.map((row) => (
                <TriState
                  key={row.key}
                  row={row}
                  value={stateOf(draft.get(row.key))}
                  onChange={(state) => setRow(row, state)}
                  inherits={inheritsText(row)}
                />
              ))}
            </section>
            <section class="change-summary" aria-labelledby="editor-summary" aria-live="polite">
              <h2 id="editor-summary">What saving does</h2>
              {changes.length === 0 ? (
                <p class="muted">No change yet.</p>
              ) : (
                <ul>
                  {changes.map(({ row, before, after }) => (
                    <li key={row.key}>{changeSentence(row, before, after, scope, appLevel)}</li>
                  ))}
                </ul>
              )}
            </section>
            {refusal && (
              <p class="form-refusal" role="alert">
                Not saved: {refusal}
              </p>
            )}
            {saved && (
              <p class="saved" role="status">
                {saved}
              </p>
            )}
            <div class="form-actions">
              <button type="submit" class="button primary" disabled={changes.length === 0 || saving}>
                Save
              </button>
              <button
                type="button"
                class="button secondary"
                disabled={changes.length === 0 || saving}
                onClick={() => setEdit(null)}
              >
                Reset
              </button>
            </div>
          </form>
        )}
      </div>
    </div>
  );
}

function parseKey(key: string): { id: string; type: OverwriteType } {
  const [type, id] = key.split(':');
  return { id: id ?? '', type: Number(type) as OverwriteType };
}
